import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { type HostPort, hostLabel, parseConnectionUri, type TargetSessionAttrs } from './connection-uri';
import { NamedStatementClient } from '../performance/named-statement-client';

/**
 * Several database hosts (CONTRACT §16, docs/adr/0007-multi-host-selection.md): every new connection of
 * the pool goes to the host that accepts writes. node-postgres connects to one host only; this is the
 * smallest selector in its connection path:
 *
 * - HostSelector knows which host took writes last. While it knows none (at start, after that host
 *   failed), it tries the hosts in the URI's order, each with a short connection of its own, and takes
 *   the first that accepts writes: a server reports `in_hot_standby` and `default_transaction_read_only`
 *   at the start of every session (PostgreSQL 14+), so no statement is needed — as libpq does.
 * - SelectingClient, the pool's client, connects to that host and checks the same two parameters on its
 *   own session (the host may have changed in between); a host that refuses or is read-only is
 *   forgotten and the connection fails as unavailable (503, database-failure.ts).
 * - A pooled connection whose statement fails because its host became read-only (25006) or is going
 *   away (57P01/57P02/57P03, class 08) is marked unqueryable at once: the pool drops it when it comes
 *   back and never hands it out again, and the selector looks for the writable host anew.
 */

/** A session's server parameters that decide whether it may write. */
export interface SessionStatus {
  in_hot_standby?: string;
  default_transaction_read_only?: string;
}

/** True when a session with these reported parameters is acceptable; null when the server did not report them. */
export function acceptable(status: SessionStatus, attrs: TargetSessionAttrs): boolean | null {
  if (attrs === 'any') return true;
  if (status.in_hot_standby === undefined || status.default_transaction_read_only === undefined) return null;
  return status.in_hot_standby === 'off' && status.default_transaction_read_only === 'off';
}

const READ_ONLY_CHECK = `SELECT (pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on') AS read_only`;

/** SQLSTATEs after which a connection is not used again: read-only host, shutdown, connection exception. */
export function discardsConnection(code: unknown): boolean {
  return typeof code === 'string' && (code === '25006' || code === '57P01' || code === '57P02' || code === '57P03' || /^08[0-9A-Z]{3}$/.test(code));
}

/** "No writable host": a connection exception (SQLSTATE 08001, as libpq reports it), hence 503. */
export class NoWritableHostError extends Error {
  readonly code = '08001';
}

interface ProbeResult {
  host: HostPort;
  verdict: 'writable' | 'read-only' | 'unreachable';
  detail?: string;
}

const ONE_MINUTE_MS = 60_000;

export class HostSelector {
  private current: number | null = null;
  private lastWritable: number | null = null;
  private probing: Promise<HostPort> | null = null;
  private lastNoneLogAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly hosts: HostPort[],
    readonly attrs: TargetSessionAttrs,
    /** the connection string of one host (user, password, database, ssl… as the URI gives them) */
    private readonly urlFor: (host: HostPort) => string,
    private readonly log: Pick<Logger, 'log' | 'warn'> = new Logger('database'),
    private readonly now: () => number = Date.now,
    private readonly probeTimeoutMs = 2_000,
  ) {}

  /** The host new connections go to: the one known to take writes, else the first in order that does. */
  pick(): Promise<HostPort> {
    if (this.current !== null) return Promise.resolve(this.hosts[this.current]);
    // concurrent connections of the pool share one round of probes
    this.probing ??= this.probeInOrder().finally(() => (this.probing = null));
    return this.probing;
  }

  /** The host failed a connection or turned out read-only: the next connection looks again, in order. */
  forget(host: HostPort, why: string): void {
    const i = this.indexOf(host);
    if (i === null || this.current !== i) return;
    this.current = null;
    this.log.warn(`database host ${hostLabel(host)} no longer takes writes (${why}); new connections try the hosts in order`);
  }

  private indexOf(host: HostPort): number | null {
    const i = this.hosts.findIndex((h) => h.host === host.host && h.port === host.port);
    return i < 0 ? null : i;
  }

  private async probeInOrder(): Promise<HostPort> {
    const results: ProbeResult[] = [];
    for (let i = 0; i < this.hosts.length; i++) {
      const result = await this.probe(this.hosts[i]);
      if (result.verdict === 'writable') {
        this.current = i;
        if (this.lastWritable !== i) {
          this.log.log(
            `database: writable host is ${hostLabel(this.hosts[i])}` + (this.lastWritable === null ? '' : ` (was ${hostLabel(this.hosts[this.lastWritable])})`),
          );
        }
        this.lastWritable = i;
        return this.hosts[i];
      }
      results.push(result);
    }
    const summary = results.map((r) => `${hostLabel(r.host)} ${r.verdict}${r.detail ? ` (${r.detail})` : ''}`).join(', ');
    if (this.now() - this.lastNoneLogAt >= ONE_MINUTE_MS) {
      this.lastNoneLogAt = this.now();
      this.log.warn(`database: no host accepts writes: ${summary}; readiness stays 503 until one does`);
    }
    throw new NoWritableHostError(`no database host accepts writes: ${summary}`);
  }

  private async probe(host: HostPort): Promise<ProbeResult> {
    const client = new Client({ connectionString: this.urlFor(host), connectionTimeoutMillis: this.probeTimeoutMs, application_name: 'partner-api-probe' });
    client.on('error', () => undefined);
    const status = reportedStatus(client);
    try {
      await client.connect();
    } catch (err) {
      return { host, verdict: 'unreachable', detail: errorSummary(err) };
    }
    try {
      let ok = acceptable(status, this.attrs);
      if (ok === null) ok = !(await client.query<{ read_only: boolean }>(READ_ONLY_CHECK)).rows[0].read_only;
      return { host, verdict: ok ? 'writable' : 'read-only' };
    } catch (err) {
      return { host, verdict: 'unreachable', detail: errorSummary(err) };
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** The server parameters a client's session reports, collected from its start on. */
function reportedStatus(client: Client): SessionStatus {
  const status: Record<string, string> = {};
  const connection = (
    client as unknown as { connection: { on(e: 'parameterStatus', l: (m: { parameterName: string; parameterValue: string }) => void): void } }
  ).connection;
  connection.on('parameterStatus', (m) => (status[m.parameterName] = m.parameterValue));
  return status;
}

/** A failure as a log line may show it: its SQLSTATE or errno code, else the start of its message (never a URI). */
export function errorSummary(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  return String(e.code ?? e.message ?? err).slice(0, 80);
}

type Callback = (err: any, client?: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- pg's overloads

/**
 * The pool's client class for a URI with several hosts or target_session_attrs (data-source.ts); with
 * `selector` null, the plain NamedStatementClient that still drops itself after a discarding error.
 */
export function selectingClientClass(selector: HostSelector | null): typeof NamedStatementClient {
  return class SelectingClient extends NamedStatementClient {
    private selected: HostPort | null = null;

    constructor(config?: ConstructorParameters<typeof NamedStatementClient>[0]) {
      super(config);
      // A FATAL message or a lost socket while no query runs is emitted as 'error'; between owners (the
      // pool's connect timed out, TypeORM's listener gone, the pool's not attached yet) nobody listens
      // and the process would exit (seen in the fault suite: 08P01 through the stalling proxy). From
      // birth, a lost connection is only ever a failed statement; the pool and TypeORM still react.
      this.on('error', () => undefined);
    }

    override connect(): Promise<Client>;
    override connect(callback: Callback): void;
    override connect(callback?: Callback): Promise<Client> | void {
      const done = this.connectToSelected();
      if (callback) {
        done.then(
          () => callback(null, this),
          (err: Error) => callback(err),
        );
        return;
      }
      return done.then(() => this);
    }

    private async connectToSelected(): Promise<void> {
      const plain = () => (super.connect as () => Promise<unknown>).call(this);
      if (selector === null) {
        await plain();
        return;
      }
      const host = await selector.pick();
      this.selected = host;
      const self = this as unknown as { host: string; port: number; connectionParameters: { host: string; port: number } };
      self.host = self.connectionParameters.host = host.host;
      self.port = self.connectionParameters.port = host.port;
      const status = reportedStatus(this);
      try {
        await plain();
      } catch (err) {
        selector.forget(host, errorSummary(err));
        throw err;
      }
      let ok = acceptable(status, selector.attrs);
      if (ok === null)
        ok = !(await (super.query as (t: string) => Promise<{ rows: Array<{ read_only: boolean }> }>).call(this, READ_ONLY_CHECK)).rows[0].read_only;
      if (!ok) {
        selector.forget(host, 'read-only');
        await this.end().catch(() => undefined);
        throw new NoWritableHostError(`database host ${hostLabel(host)} is read-only`);
      }
    }

    /** pg's handler of an ErrorResponse; the connection is not used again after a discarding one. */
    _handleErrorMessage(msg: { code?: unknown; message?: unknown }): void {
      if (discardsConnection(msg.code)) {
        (this as unknown as { _queryable: boolean })._queryable = false;
        if (selector && this.selected) selector.forget(this.selected, `SQLSTATE ${String(msg.code)}`);
      }
      (NamedStatementClient.prototype as unknown as { _handleErrorMessage(m: unknown): void })._handleErrorMessage.call(this, msg);
    }
  };
}

/** What a `pg` pool is given for DATABASE_URL: the URI node-postgres can read and the client class that selects the host. */
export interface PoolConnection {
  connectionString: string;
  Client: typeof NamedStatementClient;
}

const poolConnections = new Map<string, PoolConnection>();

/**
 * The connection of every pool of the process for `url` (the data source's, the lockout's own): one
 * selector per URI, so that they agree on the writable host and say things once. A URI of one host
 * without target_session_attrs is handed to node-postgres as it is.
 */
export function poolConnectionFor(url: string): PoolConnection {
  let connection = poolConnections.get(url);
  if (!connection) {
    const uri = parseConnectionUri(url);
    const selecting = uri.hosts.length > 1 || uri.targetSessionAttrs !== 'any';
    connection = selecting
      ? { connectionString: uri.singleHostUrl, Client: selectingClientClass(new HostSelector(uri.hosts, uri.targetSessionAttrs, uri.urlFor)) }
      : { connectionString: url, Client: selectingClientClass(null) };
    poolConnections.set(url, connection);
  }
  return connection;
}
