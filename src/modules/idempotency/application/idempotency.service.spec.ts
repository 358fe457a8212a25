import { DomainError, LockTimeoutError } from '../../../shared/domain/errors';
import { IdempotencyRequestInProgressError } from '../domain/idempotency.errors';
import { raw, sql } from '../../../shared/database/sql-template';
import type { NumberedStep, StatementGate } from '../../../shared/domain/row-insert';
import type { OneStatementWrite } from '../../../shared/database/one-statement-write';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { requestFingerprint } from '../domain/fingerprint';
import type { IdempotencyRecord, IdempotencyRepository } from '../domain/idempotency.repository';
import { IdempotencyService, inProgressOr, withNumber } from './idempotency.service';

/**
 * CONTRACT §3's order for a numbered write whose own checks (balance, references: step 7) fail: a
 * revocation (step 3) and a record committed meanwhile under the key (step 6) win over them.
 */
describe('IdempotencyService.executeNumbered, when the write’s own checks fail', () => {
  const caller = {
    environment: 'production',
    organizationId: 'o-1',
    appId: 'a-1',
    grantId: 'g-1',
    prefetched: { idempotency: { key: 'k-1', record: null }, references: null },
  } as unknown as CallerContext;
  const input = { lines: [] };
  const unbalanced = new DomainError('journal_unbalanced', 'The sums differ');
  const step = { responseKey: 'voucher_number' } as NumberedStep;

  function service(found: IdempotencyRecord | null) {
    const write = { runNumbered: jest.fn() };
    const records = { claimRow: jest.fn(), find: jest.fn().mockResolvedValue(found) };
    const svc = new IdempotencyService(records as unknown as IdempotencyRepository, write as unknown as OneStatementWrite, {} as never, {} as never);
    return { svc, write, records };
  }
  const gate = (failure: Error | null): StatementGate => ({ sql: () => sql`SELECT 1`, refusal: jest.fn(), failure: jest.fn().mockResolvedValue(failure) });
  const run = (svc: IdempotencyService, g: StatementGate | null) =>
    svc.executeNumbered(
      caller,
      'k-1',
      'journal.post',
      input,
      () => ({ response: { posted: true }, step, rows: [], gate: g }),
      async () => {
        throw unbalanced;
      },
    );

  it('answers the revocation first', async () => {
    const { svc, write } = service(null);
    const revoked = new DomainError('grant_revoked', 'revoked');
    await expect(run(svc, gate(revoked))).rejects.toBe(revoked);
    expect(write.runNumbered).not.toHaveBeenCalled();
  });

  it('then a record committed meanwhile: its replay, or key reuse for another payload', async () => {
    const record = {
      operation: 'journal.post',
      fingerprint: requestFingerprint('journal.post', input),
      grantId: 'g-1',
      response: { id: 'e-1', posted: true, environment: 'production' },
    };
    await expect(run(service(record).svc, gate(null))).resolves.toEqual({ body: { id: 'e-1', posted: true, replayed: true }, replayed: true });
    await expect(run(service({ ...record, fingerprint: 'other' }).svc, gate(null))).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('and only then the check’s own error; nothing is written', async () => {
    const { svc, write } = service(null);
    await expect(run(svc, gate(null))).rejects.toBe(unbalanced);
    await expect(run(svc, null)).rejects.toBe(unbalanced);
    expect(write.runNumbered).not.toHaveBeenCalled();
  });
});

/** A replay is the cheapest write: answered from the record read with the token, nothing of a first execution is built. */
describe('IdempotencyService, a key whose record was committed before the request', () => {
  const input = { code: 'P-1' };
  const record = {
    operation: 'product.create',
    fingerprint: requestFingerprint('product.create', input),
    grantId: 'g-1',
    response: { id: 'p-1', created: true, environment: 'production' },
  };
  const caller = {
    environment: 'production',
    organizationId: 'o-1',
    appId: 'a-1',
    grantId: 'g-1',
    prefetched: { idempotency: { key: 'k-1', record }, references: null },
  } as unknown as CallerContext;
  const write = { run: jest.fn(), runNumbered: jest.fn() };
  const records = { claimRow: jest.fn(), find: jest.fn() };
  const svc = new IdempotencyService(records as unknown as IdempotencyRepository, write as unknown as OneStatementWrite, {} as never, {} as never);

  it('is answered as a replay without building the first execution or touching the database', async () => {
    const build = jest.fn();
    await expect(svc.executeAsOneStatement(caller, 'k-1', 'product.create', input, build)).resolves.toEqual({
      body: { id: 'p-1', created: true, replayed: true },
      replayed: true,
    });
    const check = jest.fn();
    await expect(svc.executeNumbered(caller, 'k-1', 'product.create', input, build, check)).resolves.toMatchObject({ replayed: true });
    expect(build).not.toHaveBeenCalled();
    expect(check).not.toHaveBeenCalled();
    expect(write.run).not.toHaveBeenCalled();
    expect(write.runNumbered).not.toHaveBeenCalled();
    expect(records.find).not.toHaveBeenCalled();
  });
});

describe('inProgressOr (what a failed one-statement write tells the client)', () => {
  it("is 409 idempotency_request_in_progress only for a lock wait on the key's own record", () => {
    expect(inProgressOr(new LockTimeoutError(new Error('lock timeout'), true))).toBeInstanceOf(IdempotencyRequestInProgressError);
  });

  it('leaves a lock wait elsewhere (503) and any other error as they are', () => {
    const elsewhere = new LockTimeoutError(new Error('lock timeout'));
    const other = new Error('connection reset');
    expect(inProgressOr(elsewhere)).toBe(elsewhere);
    expect(inProgressOr(other)).toBe(other);
  });
});

describe("withNumber (the first execution's body with the number its statement took)", () => {
  const step = (response?: NumberedStep['response']) => ({ responseKey: 'voucher_number', response }) as unknown as NumberedStep;

  it("puts the number under the step's responseKey, leaving the response as it was", () => {
    const response = { entry_id: 'e1', status: 'posted' };
    expect(withNumber(response, step(), 42)).toEqual({ entry_id: 'e1', status: 'posted', voucher_number: 42 });
    expect(response).toEqual({ entry_id: 'e1', status: 'posted' });
  });

  it('lets the step complete the body itself when the number alone is not it', () => {
    const complete = (body: Record<string, unknown>, n: number) => ({ ...body, voucher: { number: n } });
    expect(withNumber({ entry_id: 'e1' }, step({ sql: raw('unused'), complete }), 7)).toEqual({ entry_id: 'e1', voucher: { number: 7 } });
  });
});
