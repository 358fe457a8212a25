import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { DatabaseUnavailableError, LockTimeoutError, NotFoundError, UniqueViolationError } from '../domain/errors';
import { NoWritableHostError } from './host-selection';
import { databaseFailure, isServiceUnavailable, lockWaitedOn, translateDatabaseError, uniqueViolation } from './database-failure';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code, severity: 'FATAL' });
const wrapped = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('databaseFailure', () => {
  it.each([
    ['a released query runner (connection lost between statements)', new QueryRunnerAlreadyReleasedError()],
    ['a released query runner provider (at commit)', new QueryRunnerProviderAlreadyReleasedError()],
    ['57P01 admin shutdown (pg_terminate_backend, fast stop)', wrapped(pgError('57P01', 'terminating connection due to administrator command'))],
    ['57P02 crash shutdown', wrapped(pgError('57P02'))],
    ['57P03 the database system is starting up', pgError('57P03', 'the database system is starting up')],
    ['08006 connection failure', wrapped(pgError('08006'))],
    ['08P01 protocol violation', pgError('08P01')],
    ['53300 too many connections', pgError('53300')],
    ['25006 a write on a host that became a standby', wrapped(pgError('25006', 'cannot execute INSERT in a read-only transaction'))],
    ['08001 no database host accepts writes', new NoWritableHostError('no database host accepts writes')],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['ECONNRESET', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['ETIMEDOUT', Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' })],
    ['pg: connection terminated unexpectedly', wrapped(new Error('Connection terminated unexpectedly'))],
    ['pg: connection timeout', new Error('timeout exceeded when trying to connect')],
    ['pg: a client in error state', new Error('Client has encountered a connection error and is not queryable')],
    ['ECONNREFUSED on every address (AggregateError)', new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'connect failed')],
    ['a cause chain', new Error('outer', { cause: Object.assign(new Error('inner'), { code: '57P01' }) })],
  ])('%s is unavailable', (_name, err) => {
    expect(databaseFailure(err)).toBe('unavailable');
    expect(isServiceUnavailable(err)).toBe(true);
  });

  it('a lock wait that ran out is a lock timeout, also wrapped by TypeORM', () => {
    expect(databaseFailure(wrapped(pgError('55P03', 'canceling statement due to lock timeout')))).toBe('lock_timeout');
    expect(isServiceUnavailable(pgError('55P03'))).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(pgError('23505'))],
    ['a syntax error', wrapped(pgError('42601'))],
    ['a plain defect', new TypeError('x is undefined')],
    ['a message that only mentions a connection', new Error('bad Connection terminated in the middle')],
    ['not an error', 'Connection terminated'],
    ['null', null],
  ])('%s is not a database failure', (_name, err) => {
    expect(databaseFailure(err)).toBeNull();
    expect(isServiceUnavailable(err)).toBe(false);
  });
});

describe('translateDatabaseError', () => {
  it('makes a lock timeout a LockTimeoutError (503 unless a caller knows it waited on a claim)', () => {
    const raw = wrapped(Object.assign(pgError('55P03'), { where: 'while inserting index tuple (0,1) in relation "idempotency_records"' }));
    const err = translateDatabaseError(raw);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as LockTimeoutError).onClaim).toBe(false);
    expect((err as LockTimeoutError).cause).toBe(raw);
    expect((err as LockTimeoutError).headers).toEqual({ 'Retry-After': '5' });
  });

  it('tells which table a lock wait was on', () => {
    const err = new LockTimeoutError(Object.assign(pgError('55P03'), { where: 'while inserting index tuple (0,1) in relation "idempotency_records"' }));
    expect(lockWaitedOn(err, 'idempotency_records')).toBe(true);
    expect(lockWaitedOn(err, 'grants')).toBe(false);
  });

  it('makes a lost connection a DatabaseUnavailableError with the driver error as its cause', () => {
    const raw = wrapped(pgError('57P01'));
    const err = translateDatabaseError(raw);
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    expect((err as DatabaseUnavailableError).code).toBe('service_unavailable');
    expect((err as DatabaseUnavailableError).cause).toBe(raw);
  });

  it('leaves domain errors and defects as they are', () => {
    const domain = new NotFoundError('app');
    const defect = new TypeError('x');
    expect(translateDatabaseError(domain)).toBe(domain);
    expect(translateDatabaseError(defect)).toBe(defect);
  });

  it('recognises a unique violation with its table, wrapped or not', () => {
    const raw = Object.assign(pgError('23505'), { table: 'products', constraint: 'products_code_key' });
    expect(uniqueViolation(raw)).toBeInstanceOf(UniqueViolationError);
    expect(uniqueViolation(wrapped(raw))?.table).toBe('products');
    expect(uniqueViolation(pgError('42601'))).toBeNull();
  });
});
