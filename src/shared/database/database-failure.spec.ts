import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { databaseFailure, isServiceUnavailable } from './database-failure';

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
