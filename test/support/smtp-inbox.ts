import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it: the envelope's recipients and the decoded plain text. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Quoted-printable (RFC 2045 6.7), the encoding nodemailer picks for long ASCII lines. */
function decodeQuotedPrintable(body: string): string {
  return Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1, for the service to send its emails to
 * through SMTP_URL: the tests read what really went over the wire, never a mock of the mailer.
 */
export class SmtpInbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private readonly server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const split = raw.indexOf('\r\n\r\n');
          const head = raw.slice(0, split);
          let body = raw.slice(split + 4);
          if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) body = decodeQuotedPrintable(body);
          else if (/content-transfer-encoding:\s*base64/i.test(head)) body = Buffer.from(body, 'base64').toString('utf8');
          const subject = /^subject: (.*)$/im.exec(head)?.[1] ?? '';
          this.messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), subject, text: body });
          for (const wake of this.waiters.splice(0)) wake();
          callback();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The messages to `email` so far. */
  to(email: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(email.toLowerCase()));
  }

  /** The `n`th message (1-based) to `email`, waiting up to 5 s for it. */
  async nth(email: string, n = 1): Promise<ReceivedMail> {
    const deadline = Date.now() + 5_000;
    while (this.to(email).length < n) {
      if (Date.now() > deadline) throw new Error(`no email number ${n} to ${email} within 5 s (got ${this.to(email).length})`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.to(email)[n - 1];
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The confirmation link's path and query in a sign-up email (null when the email has none). */
export function signupLinkIn(mail: ReceivedMail): string | null {
  const m = /https?:\/\/[^\s/]+(\/developers\/signup\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail.text);
  return m ? m[1] : null;
}
