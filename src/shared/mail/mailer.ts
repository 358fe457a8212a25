import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ServiceUnavailableError } from '../domain/errors';

/** One plain-text email. `logLine` is what is logged instead when no SMTP server is configured. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** the line written to the log at `warn` when SMTP_URL is unset (it holds what the reader must act on, e.g. the link) */
  logLine: string;
}

/**
 * Sends the service's emails (issue 35: the developer sign-up confirmation). With SMTP_URL, through
 * that server (nodemailer); without, the message's `logLine` is written to the log at `warn`, so a
 * fresh machine still works (the start-up banner says so). A server that cannot be reached is a 503.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger('mail');
  private readonly transport: Transporter | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.transport =
      config.smtpUrl === null
        ? null
        : createTransport(
            // a server that does not answer is a 503 within seconds, not a request hanging for minutes
            { url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 },
            { from: config.smtpFrom },
          );
  }

  /** Whether emails really leave (SMTP_URL set). */
  get sends(): boolean {
    return this.transport !== null;
  }

  async send(message: MailMessage): Promise<void> {
    if (this.transport === null) {
      this.logger.warn(message.logLine);
      return;
    }
    try {
      await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
    } catch (err) {
      // the server's answer only: never the URL (it may hold a password) nor the message
      this.logger.error(
        { code: (err as { code?: string }).code, responseCode: (err as { responseCode?: number }).responseCode },
        'email not sent: the SMTP server refused it or could not be reached',
      );
      throw new ServiceUnavailableError();
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
