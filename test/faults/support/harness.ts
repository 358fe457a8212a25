import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { EMBEDDED_STORE_NETWORKS } from '../../../src/shared/domain/allowed-networks';

const ROOT = join(__dirname, '..', '..', '..');
/** The build under test: this checkout's dist/, or FAULTS_SERVICE_ROOT (e.g. an older build, to see a defect). */
const SERVICE_ROOT = process.env.FAULTS_SERVICE_ROOT ?? ROOT;
const DATA_ROOT = mkdtempSync(join(tmpdir(), 'partner-faults-data-'));

/** afterAll: the instances' DATA_DIRs. */
export function removeInstanceData(): void {
  rmSync(DATA_ROOT, { recursive: true, force: true });
}

export { freePort } from '../../support/free-port';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const CONSOLE_KEY = 'faults-console-key-0123456789abcdef';
export const GRACE_SECONDS = 5;
/** One key for every instance, as an operator configures a deployment (CONTRACT §2, §8): each seals and opens the others' secrets. */
const SECRETS_KEY = `v1:${Buffer.alloc(32, 7).toString('base64url')}`;

/** One instance of the built service (dist/src/main.js), as an operator runs it. */
export class Instance {
  child: ChildProcess | null = null;
  exitCode: number | null | undefined = undefined;
  exitedAt = 0;
  stderr = '';
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly port: number,
    readonly consolePort: number,
    private readonly databaseUrl: string,
  ) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.child !== null && this.exitCode === undefined;
  }

  async start(): Promise<void> {
    this.exitCode = undefined;
    this.stderr = '';
    const child = spawn(process.execPath, [join(SERVICE_ROOT, 'dist', 'src', 'main.js')], {
      cwd: SERVICE_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: this.databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(this.port),
        CONSOLE_PORT: String(this.consolePort),
        CONSOLE_API_KEY: CONSOLE_KEY,
        SECRETS_KEY,
        RATE_LIMIT_PER_MINUTE: '0', // the load here is about faults, not limits
        // the receivers are on this machine; on PostgreSQL nothing but public addresses is reachable by default
        WEBHOOK_ALLOWED_NETWORKS: EMBEDDED_STORE_NETWORKS,
        SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
        LOG_LEVEL: process.env.FAULTS_DEBUG ? 'warn' : 'error',
        DATA_DIR: join(DATA_ROOT, this.name),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr!.on('data', (d) => (this.stderr = (this.stderr + String(d)).slice(-20_000)));
    // the JSON log goes to stdout
    child.stdout!.on('data', (d) => (this.stderr = (this.stderr + String(d)).slice(-20_000)));
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        this.exitedAt = Date.now();
        resolve();
      }),
    );
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      if (this.exitCode !== undefined) throw new Error(`${this.name} exited at start: ${this.stderr}`);
      try {
        if ((await fetch(`${this.base}/health/ready`)).status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`${this.name} not ready within 30 s`);
  }

  signal(sig: NodeJS.Signals): void {
    if (this.child && this.exitCode === undefined) this.child.kill(sig);
  }

  async waitExit(ms: number): Promise<boolean> {
    return Promise.race([this.exited.then(() => true), sleep(ms).then(() => false)]);
  }

  /** afterAll: by PID, whatever state it is in. */
  async kill(): Promise<void> {
    this.signal('SIGKILL');
    await this.waitExit(5_000);
  }
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> & { code?: string; replayed?: boolean };
  at: number;
}

/** One HTTP request; rejects with the socket error (ECONNRESET, ECONNREFUSED, socket hang up…). */
export function call(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; agent?: http.Agent; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent: options.agent ?? false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
        timeout: options.timeoutMs ?? 60_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let body: HttpResult['body'] = {};
          try {
            body = text ? JSON.parse(text) : {};
          } catch {
            body = { raw: text };
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, at: Date.now() });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every answer any client got, for the global invariants. */
export interface Attempt {
  key: string;
  first: boolean;
  instance: string;
  status?: number;
  code?: string;
  retryAfter?: string;
  error?: string;
  replayed?: boolean;
  /** the response's Connection header */
  connection?: string;
  at: number;
}

export interface Success {
  kind: 'product' | 'journal';
  key: string;
  id: string;
  operationId: string;
  code?: string;
  voucher?: number;
  committedBy: number; // when the client had the 201 (the commit happened before)
  /** an earlier attempt of this key failed at the socket level */
  hadSocketError: boolean;
  replayed: boolean;
  tag?: string;
}

/**
 * A client that follows the contract: the same key and body until it has an answer that is final;
 * 503 (after Retry-After, shortened here to keep the suite short), 409 in_progress and socket errors
 * are retried, on whichever instance is up.
 */
export class RetryingClients {
  readonly attempts: Attempt[] = [];
  readonly successes: Success[] = [];
  readonly failures: string[] = [];

  /** `timeoutMs`: how long the client waits for one answer before it gives up on the request (CLIENT_TIMEOUT). */
  constructor(
    private readonly instances: () => Instance[],
    private readonly timeoutMs = 60_000,
  ) {}

  async create(
    kind: 'product' | 'journal',
    token: string,
    body: Record<string, unknown>,
    options: { prefer?: Instance; agent?: http.Agent; deadlineMs?: number; key?: string; tag?: string } = {},
  ): Promise<Success | null> {
    const key = options.key ?? randomUUID();
    const path = kind === 'product' ? '/api/partner/sandbox/v1/products' : '/api/partner/sandbox/v1/journal';
    const deadline = Date.now() + (options.deadlineMs ?? 90_000);
    let first = true;
    let hadSocketError = false;
    let prefer = options.prefer;
    let n = 0;
    while (Date.now() < deadline) {
      const live = this.instances().filter((i) => i.alive);
      const target = prefer?.alive ? prefer : live[n++ % Math.max(live.length, 1)];
      if (!target) {
        await sleep(200);
        continue;
      }
      try {
        const res = await call(target.base, 'POST', path, {
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
          body,
          agent: prefer === target ? options.agent : undefined,
          timeoutMs: this.timeoutMs,
        });
        this.attempts.push({
          key,
          first,
          instance: target.name,
          status: res.status,
          code: res.body.code,
          retryAfter: res.headers['retry-after'] as string | undefined,
          replayed: res.body.replayed,
          connection: res.headers.connection,
          at: res.at,
        });
        first = false;
        if (res.status === 201) {
          const s: Success = {
            kind,
            key,
            id: String(res.body.id),
            operationId: String(res.body.operation_id),
            code: body.code as string | undefined,
            voucher: res.body.voucher_number as number | undefined,
            committedBy: res.at,
            hadSocketError,
            replayed: res.body.replayed === true,
            tag: options.tag,
          };
          this.successes.push(s);
          return s;
        }
        if (res.status === 503 || (res.status === 409 && res.body.code === 'idempotency_request_in_progress')) {
          await sleep(150);
          continue;
        }
        this.failures.push(`${kind} ${key}: ${res.status} ${JSON.stringify(res.body)}`);
        return null;
      } catch (err) {
        const e = err as { code?: string; message?: string };
        this.attempts.push({ key, first, instance: target.name, error: e.code ?? e.message, at: Date.now() });
        first = false;
        hadSocketError = true;
        prefer = undefined; // a client that lost its connection tries the other instances
        await sleep(100);
      }
    }
    this.failures.push(`${kind} ${key}: no success before the deadline`);
    return null;
  }
}

export interface ReceivedEvent {
  webhookId: string;
  operationId: string;
  answeredAt: number;
}

/**
 * The partner's webhook receiver: verifies every Standard Webhooks signature, answers 200 — or, while
 * `hold` is on, accepts and answers nothing. `silent` receivers never answer at all.
 */
export class Receiver {
  readonly events: ReceivedEvent[] = [];
  readonly firstSeen = new Map<string, number>();
  /** The event's `timestamp` (set by the write's transaction, just before its commit), by operation. */
  readonly createdAt = new Map<string, number>();
  badSignatures = 0;
  hold = false;
  held: Array<{ res: http.ServerResponse; operationId: string }> = [];
  private server: http.Server | null = null;
  private secret = '';

  constructor(private readonly silent = false) {}

  setSecret(secret: string): void {
    this.secret = secret;
  }

  async listen(): Promise<string> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (this.silent) return;
        let operationId: string;
        try {
          const payload = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as { timestamp: string; data: { operation_id: string } };
          operationId = payload.data.operation_id;
          this.createdAt.set(operationId, Date.parse(payload.timestamp));
        } catch {
          this.badSignatures++;
          res.statusCode = 400;
          res.end();
          return;
        }
        if (!this.firstSeen.has(operationId)) this.firstSeen.set(operationId, Date.now());
        if (this.hold) {
          this.held.push({ res, operationId });
          return;
        }
        this.events.push({ webhookId: String(req.headers['webhook-id']), operationId, answeredAt: Date.now() });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server!.address() as { port: number }).port}/hooks`;
  }

  release(): void {
    this.hold = false;
    for (const { res } of this.held) res.destroy();
    this.held = [];
  }

  answered(operationId: string): ReceivedEvent | undefined {
    return this.events.find((e) => e.operationId === operationId);
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}
