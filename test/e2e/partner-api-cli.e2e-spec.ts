import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { freePort } from '../support/free-port';
import { createTestApp, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
const CLIENT = join(ROOT, 'clients', 'typescript');

/** A local receiver on 127.0.0.1 that verifies every request with the `standardwebhooks` library. */
interface Attempt {
  id: string;
  at: number;
  status: number;
  verified: boolean;
  body: string;
  headers: IncomingHttpHeaders;
}
class Receiver {
  readonly attempts: Attempt[] = [];
  secret = '';
  private server: Server | null = null;
  /** The status to answer a verified request: the n-th (1-based), of that webhook-id. Unverified: 400. */
  constructor(private readonly answer: (n: number, id: string) => number = () => 204) {}

  /** The attempts answered 2xx, in arrival order. */
  get delivered(): Attempt[] {
    return this.attempts.filter((a) => a.status >= 200 && a.status < 300);
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        let verified = false;
        try {
          new Webhook(this.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        const id = String(req.headers['webhook-id']);
        const status = verified ? this.answer(this.attempts.length + 1, id) : 400;
        this.attempts.push({ id, at: Date.now(), status, verified, body, headers: req.headers });
        res.statusCode = status;
        res.end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}

interface Cli {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/**
 * CONTRACT §15, local development without a public URL: the client package's `partner-api` command
 * (its package `bin`, as `npm run build` in clients/typescript makes it), run as a child process against
 * a started service and a local receiver that verifies each signature.
 */
describe('partner-api listen --forward-to and partner-api trigger (CONTRACT §15)', () => {
  let app: TestApp;
  let origin: string;
  let bin: string;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // the package's own build makes the bin its package.json names: what `npm pack` ships
    await promisify(execFile)('npm', ['run', 'build'], { cwd: CLIENT });
    const pkg = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
    expect(pkg.bin?.['partner-api']).toBeDefined();
    bin = join(CLIENT, pkg.bin!['partner-api']!);
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);

    app = await createTestApp();
    await app.apps.partner.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as AddressInfo).port}`;
  }, 180_000);

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const r of receivers.splice(0)) await r.close();
  });
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await app?.close();
  });

  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'partner-api-cli-'));
    dirs.push(dir);
    return dir;
  };
  const aReceiver = (answer?: (n: number, id: string) => number): Receiver => {
    const r = new Receiver(answer);
    receivers.push(r);
    return r;
  };

  /** The command as a user runs it: only PATH and HOME from this process, plus what the test gives. */
  function run(args: string[], env: Record<string, string>, cwd: string = tempDir()): Cli {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (err += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, out: () => out, err: () => err, exited };
  }
  const envOf = (p: SandboxProject, base = `${origin}${SANDBOX}`) => ({ PARTNER_API_TOKEN: p.token, PARTNER_API_BASE: base });

  const postJournal = async (p: SandboxProject): Promise<string> => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(res.status).toBe(201);
    return res.body.operation_id as string;
  };
  /** The app's feed as the service lists it: every event, with its webhook-id. */
  const feedOf = async (p: SandboxProject) => {
    const res = await app.partner().get(`${SANDBOX}/events`).query({ limit: '100' }).set('Authorization', `Bearer ${p.token}`);
    expect(res.status).toBe(200);
    return res.body.data as Array<{ id: string; type: string; timestamp: string; data: { operation_id: string } }>;
  };
  /** The feed once it lists `n` events (an event is listed within 2 s of its commit, CONTRACT §14). */
  const feedWith = async (p: SandboxProject, n: number) => {
    let events: Awaited<ReturnType<typeof feedOf>> = [];
    await eventually(async () => (events = await feedOf(p)).length >= n, `${n} events in the feed`);
    return events;
  };
  const operationOf = (a: Attempt): string => (JSON.parse(a.body) as { data: { operation_id: string } }).data.operation_id;
  const ready = (cli: Cli) => eventually(() => /^Ready/m.test(cli.out()), 'listen to be ready', 30_000);

  it('forwards the event a trigger makes, signed with the secret it printed, and resumes from its cursor file after a kill without re-sending or skipping', async () => {
    const p = await aSandboxProject(app);
    const before = await postJournal(p); // already there when listen first starts: not forwarded (only new events)
    await feedWith(p, 1);
    const receiver = aReceiver();
    const url = await receiver.start();
    const dir = tempDir();

    const first = run(['listen', '--forward-to', url], envOf(p), dir);
    await ready(first);
    const secret = /(whsec_[A-Za-z0-9+/=]+)/.exec(first.out())?.[1];
    expect(secret).toBeDefined();
    receiver.secret = secret!;

    const trigger = run(['trigger'], envOf(p));
    expect(await trigger.exited).toBe(0);
    const receipt = JSON.parse(trigger.out().slice(trigger.out().indexOf('{'))) as Record<string, unknown>;
    expect(receipt).toEqual({
      operation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'journal.post',
      status: 'completed',
      resource: { type: 'journal_entry', id: expect.any(String) },
      completed_at: expect.any(String),
      environment: 'sandbox',
    });

    await eventually(() => receiver.attempts.length >= 1, 'the triggered event at the receiver');
    const [delivered] = receiver.attempts;
    expect(delivered!.verified).toBe(true);
    expect(delivered!.status).toBe(204);
    expect(delivered!.headers['content-type']).toMatch(/^application\/json/);
    // the body every webhook delivery of that event carries: the feed's event without its id, which is the webhook-id
    const events = await feedWith(p, 2);
    expect(events.map((e) => e.data.operation_id)).toEqual([before, receipt.operation_id]);
    const { id, ...body } = events[1]!;
    expect(delivered!.id).toBe(id);
    expect(delivered!.body).toBe(JSON.stringify(body));
    await eventually(() => first.out().includes(id), 'listen to report the delivery');

    // killed hard, two events while it is down, restarted with the same secret (the receiver keeps it)
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(join(dir, '.partner-api-listen.json'))).toBe(true);
    expect(existsSync(join(dir, '.partner-api-listen.json.lock'))).toBe(true); // left by the kill: the restart takes it over
    const whileDown = [await postJournal(p), await postJournal(p)];
    const second = run(['listen', '--forward-to', url], { ...envOf(p), PARTNER_API_WEBHOOK_SECRET: secret! }, dir);
    await ready(second);
    expect(second.out()).not.toContain(secret); // a secret it was given is not printed again
    await eventually(() => receiver.attempts.length >= 3, 'the two events sent while listen was down');

    expect(receiver.attempts.map(operationOf)).toEqual([receipt.operation_id, ...whileDown]);
    expect(receiver.attempts.every((a) => a.verified && a.status === 204)).toBe(true);
    // and nothing more follows on the next polls
    await new Promise((r) => setTimeout(r, 2500));
    expect(receiver.attempts).toHaveLength(3);
  }, 180_000);

  /**
   * Issue 45 (CONTRACT §21 "Local webhooks"): from the repository, one documented command each —
   * `npm run listen -- --forward-to <url>` and `npm run trigger` — with no build of the package first (the
   * scripts run its TypeScript sources on the pinned Node 24). Before, the README's `partner-api listen`
   * was "command not found" until a separate build.
   */
  it('npm run listen and npm run trigger from the repository root, without a build step: the triggered event arrives signed', async () => {
    const p = await aSandboxProject(app);
    const receiver = aReceiver();
    const url = await receiver.start();
    const dir = tempDir();
    const npm = (args: string[]): Cli => {
      const child = spawn('npm', ['run', '--silent', ...args], {
        cwd: ROOT,
        detached: true, // its own process group: npm and the node it starts stop together
        env: { PATH: process.env.PATH ?? '', HOME: dir, ...envOf(p) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d) => (out += String(d)));
      child.stderr!.on('data', (d) => (err += String(d)));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      return { child, out: () => out, err: () => err, exited };
    };
    const listening = npm(['listen', '--', '--forward-to', url, '--cursor-file', join(dir, 'cursor.json')]);
    try {
      await eventually(() => /^Ready/m.test(listening.out()) || listening.child.exitCode !== null, 'npm run listen to be ready', 60_000);
      expect(listening.err()).toBe('');
      receiver.secret = /(whsec_[A-Za-z0-9+/=]+)/.exec(listening.out())?.[1] ?? '';
      expect(receiver.secret).not.toBe('');
      const triggered = npm(['trigger']);
      expect(await triggered.exited).toBe(0);
      expect(triggered.out()).toMatch(/^Posted a sample journal entry/);
      await eventually(() => receiver.attempts.length >= 1, 'the triggered event at the receiver', 30_000);
      expect(receiver.attempts.map((a) => [a.verified, a.status])).toEqual([[true, 204]]);
    } finally {
      if (listening.child.exitCode === null && listening.child.signalCode === null) process.kill(-listening.child.pid!, 'SIGKILL');
      await listening.exited;
    }
  }, 180_000);

  it('retries a receiver that is down, then answers 500, with growing backoff, never skipping an event or advancing past it across a restart', async () => {
    const p = await aSandboxProject(app);
    const ops = [await postJournal(p), await postJournal(p)];
    const [e1, e2] = (await feedWith(p, 2)).map((e) => e.id);
    const port = await freePort(); // nothing listens there yet
    const url = `http://127.0.0.1:${port}/hooks`;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const env = { ...envOf(p), PARTNER_API_WEBHOOK_SECRET: secret };
    const cursorFile = join(tempDir(), 'listen-state.json');

    // --from-start: the events already in the feed are forwarded too
    const first = run(['listen', '--forward-to', url, '--cursor-file', cursorFile, '--from-start'], env);
    await eventually(() => (first.err().match(new RegExp(`${e1}.*connection refused`, 'g')) ?? []).length >= 2, 'two refused attempts of the first event');
    expect(first.err()).not.toContain(e2!);

    // restarted while the receiver is still down: it starts again at the undelivered first event
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(`${cursorFile}.lock`)).toBe(false);
    const second = run(['listen', '--forward-to', url, '--cursor-file', cursorFile], env);
    await eventually(() => second.err().includes(e1!), 'the first event tried again after the restart');

    // up, answering 500 twice before it takes the event
    const receiver = aReceiver((n) => (n <= 2 ? 500 : 204));
    receiver.secret = secret;
    await receiver.start(port);
    await eventually(() => receiver.delivered.length >= 2, 'both events delivered', 60_000);

    expect(receiver.attempts.map((a) => [a.id, a.status])).toEqual([
      [e1, 500],
      [e1, 500],
      [e1, 204],
      [e2, 204],
    ]);
    expect(receiver.attempts.every((a) => a.verified)).toBe(true);
    expect(receiver.delivered.map(operationOf)).toEqual(ops);
    expect(second.err()).toMatch(new RegExp(`${e1}.*500`));
    // backoff: the second wait is longer than the first, and neither is a hammering loop
    const [a1, a2, a3] = receiver.attempts.map((a) => a.at);
    expect(a2! - a1!).toBeGreaterThanOrEqual(800);
    expect(a3! - a2!).toBeGreaterThan(a2! - a1!);
  }, 180_000);

  it('killed in the middle of a page: resumes at the undelivered event without sending the delivered one before it again', async () => {
    const p = await aSandboxProject(app);
    const ops = [await postJournal(p), await postJournal(p), await postJournal(p)];
    const [e1, e2, e3] = (await feedWith(p, 3)).map((e) => e.id);
    let accepting = false;
    // the first event is taken at once, the second refused until the receiver is fixed
    const receiver = aReceiver((_n, id) => (id === e1 || accepting ? 204 : 500));
    const url = await receiver.start();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    receiver.secret = secret;
    const env = { ...envOf(p), PARTNER_API_WEBHOOK_SECRET: secret };
    const cursorFile = join(tempDir(), 'state', 'listen.json');

    const first = run(['listen', '--forward-to', url, '--cursor-file', cursorFile, '--from-start'], env);
    await eventually(() => first.err().includes(`${e2}  → answered 500`), 'the second event refused once');
    first.child.kill('SIGKILL');
    await first.exited;

    accepting = true;
    const second = run(['listen', '--forward-to', url, '--cursor-file', cursorFile], env);
    await eventually(() => receiver.delivered.length >= 3, 'the rest of the page delivered');
    expect(receiver.delivered.map((a) => a.id)).toEqual([e1, e2, e3]);
    expect(receiver.delivered.map(operationOf)).toEqual(ops);
    expect(receiver.attempts.filter((a) => a.id === e1)).toHaveLength(1);
    expect(second.err()).not.toContain(e1!);
  }, 180_000);

  it('a second listen on the same cursor file: one line naming the first, exit 1', async () => {
    const p = await aSandboxProject(app);
    const receiver = aReceiver();
    const url = await receiver.start();
    const dir = tempDir();
    const first = run(['listen', '--forward-to', url], envOf(p), dir);
    await ready(first);
    const second = run(['listen', '--forward-to', url], envOf(p), dir);
    expect(await second.exited).toBe(1);
    expect(second.out()).toBe('');
    const lines = second.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`pid ${first.child.pid}`);
    expect(lines[0]).toContain(join(dir, '.partner-api-listen.json'));
    expect(first.child.exitCode).toBeNull(); // the first goes on
  });

  it('listen with a wrong token: one line naming the 401, exit 1, nothing forwarded and no cursor file', async () => {
    const receiver = aReceiver();
    const url = await receiver.start();
    const dir = tempDir();
    const cli = run(['listen', '--forward-to', url], { PARTNER_API_TOKEN: `hsk_${'A'.repeat(46)}`, PARTNER_API_BASE: `${origin}${SANDBOX}` }, dir);
    expect(await cli.exited).toBe(1);
    expect(cli.out()).toBe('');
    const lines = cli.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\b401\b/);
    expect(lines[0]).toContain('PARTNER_API_TOKEN');
    expect(receiver.attempts).toHaveLength(0);
    expect(existsSync(join(dir, '.partner-api-listen.json'))).toBe(false);
    expect(existsSync(join(dir, '.partner-api-listen.json.lock'))).toBe(false);
  });

  it('listen with a cursor file this app was not given: one line naming the file, exit 1', async () => {
    const p = await aSandboxProject(app);
    const other = await aSandboxProject(app);
    const cursorFile = join(tempDir(), 'other-app.json');
    const page = await app.partner().get(`${SANDBOX}/events`).set('Authorization', `Bearer ${other.token}`);
    writeFileSync(cursorFile, JSON.stringify({ after: page.body.next_cursor, delivered: [] }));
    const cli = run(['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--cursor-file', cursorFile], envOf(p));
    expect(await cli.exited).toBe(1);
    expect(cli.out()).toBe('');
    const lines = cli.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\b400\b/);
    expect(lines[0]).toContain(cursorFile);
  });

  it('trigger with a wrong token: one line naming the 401, exit 1', async () => {
    const cli = run(['trigger'], { PARTNER_API_TOKEN: `hsk_${'A'.repeat(46)}`, PARTNER_API_BASE: `${origin}${SANDBOX}` });
    expect(await cli.exited).toBe(1);
    expect(cli.out()).toBe('');
    const lines = cli.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\b401\b/);
  });

  it('trigger refuses a production base with one line and exit 1, before any call', async () => {
    const p = await aSandboxProject(app);
    const closedPort = await freePort(); // a call would fail with a connection error, not the refusal
    const cli = run(['trigger'], envOf(p, `http://127.0.0.1:${closedPort}${PRODUCTION}`));
    expect(await cli.exited).toBe(1);
    expect(cli.out()).toBe('');
    const lines = cli.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/sandbox only/i);
    expect(lines[0]).toContain('PARTNER_API_BASE');
  });

  it('without --forward-to, or an unknown command: what is wrong, the usage, and exit 2', async () => {
    const p = await aSandboxProject(app);
    for (const args of [['listen'], ['forward']]) {
      const cli = run(args, envOf(p));
      expect(await cli.exited).toBe(2);
      expect(cli.err()).toMatch(/^partner-api: .*\n(usage|Usage)/);
    }
  });
});
