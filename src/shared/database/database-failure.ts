import { CannotExecuteNotConnectedError, ConnectionIsNotSetError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { DatabaseUnavailableError, DomainError, LockTimeoutError, UniqueViolationError } from '../domain/errors';

/**
 * What a failed database call was, as far as the answer to the client is concerned (CONTRACT §3):
 * - `unavailable`: the database could not be reached or the connection was lost (before, during or at
 *   the commit of a transaction), or the server refused/aborted the work for a transient reason;
 * - `lock_timeout`: a lock wait ran out (`lock_timeout`, SQLSTATE 55P03). Whether that is "the same key
 *   is still running" (409, §6) is decided by the caller that knows which statement waited — only the
 *   idempotency claim does; everywhere else it is `unavailable` to the client (503).
 * - null: anything else (a defect, a constraint the code should have handled…).
 *
 * The ONE place that recognises these failures. Repositories (through Sql, Transactions and
 * OneStatementWrite) turn them into domain errors with translateDatabaseError(); the problem filter
 * still recognises a raw one thrown outside them.
 */
export type DatabaseFailure = 'unavailable' | 'lock_timeout';

/** SQLSTATE codes, by what they are. */
const LOCK_NOT_AVAILABLE = '55P03';
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: backend terminated (pg_terminate_backend, fast shutdown)
  '57P02', // crash_shutdown: another backend crashed, the server restarts
  '57P03', // cannot_connect_now: starting up or shutting down
  '57P05', // idle_session_timeout
  '57014', // query_canceled (statement timeout, cancel request)
  '53300', // too_many_connections
  '53100', // disk_full
  '53200', // out_of_memory
  '40001', // serialization_failure: retrying helps
  '40P01', // deadlock_detected: retrying helps
  '25P03', // idle_in_transaction_session_timeout
  '25006', // read_only_sql_transaction: the host became a standby (failover, CONTRACT §16); the connection is dropped
]);
/** SQLSTATE class 08: connection exception (08000, 08003, 08006, 08001, 08004, 08P01…). */
const CONNECTION_EXCEPTION_CLASS = '08';

/** Socket and resolver errors of the driver's connection (Node system error codes). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ERR_SOCKET_CLOSED',
  'ERR_STREAM_DESTROYED',
]);

/**
 * node-postgres reports a lost or unusable connection only by message (it sets no code): these are
 * the messages of its Client and Pool for exactly that state.
 */
const PG_CONNECTION_STATE_MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
  /^Query read timeout/,
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function classifyOne(err: ErrorLike): DatabaseFailure | null {
  // TypeORM's query runner is released when its connection emits 'error' (a terminated backend, a
  // restarted server): every later statement of the transaction, and its COMMIT, throws these.
  if (
    err instanceof QueryRunnerAlreadyReleasedError ||
    err instanceof QueryRunnerProviderAlreadyReleasedError ||
    err instanceof CannotExecuteNotConnectedError ||
    err instanceof ConnectionIsNotSetError
  ) {
    return 'unavailable';
  }
  const code = typeof err.code === 'string' ? err.code : undefined;
  if (code === LOCK_NOT_AVAILABLE) return 'lock_timeout';
  if (code !== undefined) {
    if (UNAVAILABLE_SQLSTATES.has(code) || SOCKET_CODES.has(code)) return 'unavailable';
    if (/^[0-9A-Z]{5}$/.test(code) && code.startsWith(CONNECTION_EXCEPTION_CLASS)) return 'unavailable';
  }
  const message = typeof err.message === 'string' ? err.message : '';
  if (PG_CONNECTION_STATE_MESSAGES.some((re) => re.test(message))) return 'unavailable';
  return null;
}

/** Classifies an error thrown by a database call (TypeORM's wrapper, the driver's error, or their causes). */
export function databaseFailure(err: unknown): DatabaseFailure | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object' || seen.has(e) || seen.size > 8) continue;
    seen.add(e);
    const failure = classifyOne(e as ErrorLike);
    if (failure) return failure;
    const { driverError, cause, errors } = e as ErrorLike;
    queue.push(driverError, cause);
    // AggregateError (e.g. ECONNREFUSED on both ::1 and 127.0.0.1)
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return null;
}

/**
 * The domain error a failed database call is (LockTimeoutError, DatabaseUnavailableError), or the
 * error itself when it is none of them (a domain error already, a defect, a constraint).
 */
export function translateDatabaseError(err: unknown): unknown {
  if (err instanceof DomainError) return err;
  const failure = databaseFailure(err);
  if (failure === 'lock_timeout') return new LockTimeoutError(err);
  if (failure === 'unavailable') return new DatabaseUnavailableError(err);
  return err;
}

const UNIQUE_VIOLATION = '23505';

/** The unique violation (SQLSTATE 23505) a driver error is, with its table and constraint, or null. */
export function uniqueViolation(err: unknown): UniqueViolationError | null {
  const e = err as { code?: unknown; table?: string; constraint?: string; driverError?: unknown } | null;
  if (e?.code === UNIQUE_VIOLATION) return new UniqueViolationError(e.table, e.constraint, err);
  if (e?.driverError) return uniqueViolation(e.driverError);
  return null;
}

/** True when the lock wait that ran out was on a row or index entry of `table` (the driver's `where`). */
export function lockWaitedOn(err: LockTimeoutError, table: string): boolean {
  const where = (err.cause as { where?: unknown } | null)?.where;
  return typeof where === 'string' && where.includes(table);
}

/** True when the client should be told 503 service_unavailable with Retry-After (CONTRACT §3). */
export function isServiceUnavailable(err: unknown): boolean {
  return databaseFailure(err) !== null;
}

interface ClientLike {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * node-postgres emits 'error' on a client when its backend is terminated or the server stops; while a
 * client is between owners (TypeORM's listener already removed, the pool's not yet attached) such an
 * event has no listener and would crash the process — seen in the fault suite under
 * pg_terminate_backend. Every client of the pool gets a permanent listener so that a lost connection is
 * only ever a failed statement (503), never an exit; TypeORM and the pool still react to it themselves.
 */
export function guardPoolClients(pool: unknown): void {
  const p = pool as { on?: (event: 'connect', listener: (client: ClientLike) => void) => unknown; _clients?: ClientLike[] } | null;
  if (!p || typeof p.on !== 'function') return;
  const guard = (client: ClientLike) => client.on('error', () => undefined);
  p.on('connect', guard);
  for (const client of p._clients ?? []) guard(client);
}
