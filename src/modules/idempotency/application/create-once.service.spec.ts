import { createHash } from 'node:crypto';
import type { OneStatementWrite } from '../../../shared/database/one-statement-write';
import { raw } from '../../../shared/database/sql-template';
import type { CallerContext } from '../../../shared/domain/caller-context';
import type { Clock } from '../../../shared/domain/clock';
import type { ClaimInsert, NumberedStep, RowInsert, StatementGate } from '../../../shared/domain/row-insert';
import type { CompletedOperation, OperationReceiptRows, WriteAccessGate } from '../domain/create-once.ports';
import type { IdempotencyRecord, IdempotencyRepository, IdempotencyScope } from '../domain/idempotency.repository';
import { CreateOnceService, type NewResource } from './create-once.service';
import { IdempotencyService } from './idempotency.service';

const NOW = new Date('2026-11-29T10:11:12.345Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WIDGET = { kind: 'widget.create', resourceType: 'widget' };

type Claim = ClaimInsert & { scope: IdempotencyScope; record: IdempotencyRecord };
const keyOf = (s: IdempotencyScope) => [s.organizationId, s.environment, s.appId, s.key].join('|');

/**
 * The database as the one-statement write sees it: a claim is stored with its rows unless a record
 * holds its key (then nothing is written), and the committed records are what the token's statement
 * reads (`prefetched`) and what `find` answers.
 */
function aDatabase() {
  const records = new Map<string, IdempotencyRecord>();
  const written: Array<{ claim: Claim; rows: readonly RowInsert[]; gate: StatementGate | null; step?: NumberedStep }> = [];
  let voucher = 41;
  const repository = {
    claimRow: (scope: IdempotencyScope, record: IdempotencyRecord): Claim => ({
      table: 'idempotency_records',
      columns: [],
      values: [],
      conflictColumns: [],
      responseColumn: 'response',
      scope,
      record,
    }),
    find: jest.fn(async (scope: IdempotencyScope) => records.get(keyOf(scope)) ?? null),
  };
  const write = {
    run: jest.fn(async (claim: Claim, rows: readonly RowInsert[], gate: StatementGate | null) => {
      if (records.has(keyOf(claim.scope))) return false;
      records.set(keyOf(claim.scope), claim.record);
      written.push({ claim, rows, gate });
      return true;
    }),
    runNumbered: jest.fn(async (claim: Claim, step: NumberedStep, rows: readonly RowInsert[], gate: StatementGate | null) => {
      if (records.has(keyOf(claim.scope))) return null;
      const n = ++voucher;
      records.set(keyOf(claim.scope), { ...claim.record, response: { ...claim.record.response, [step.responseKey]: n } });
      written.push({ claim, rows, gate, step });
      return n;
    }),
  };
  return { records, written, repository, write };
}

function aCreateOnce(db = aDatabase()) {
  const receipts = {
    rowsFor: jest.fn((_caller: CallerContext, r: CompletedOperation): RowInsert[] => [
      { table: 'operation_receipts', columns: [], values: [r.operationId, r.kind, r.resourceType, r.resourceId, r.completedAt] },
    ]),
  };
  const gates = {
    gateFor: jest.fn((_caller: CallerContext, options: { mandate: boolean }): StatementGate => ({
      sql: () => raw(options.mandate ? 'the grant and the mandate' : 'the grant'),
      refusal: jest.fn(),
      failure: jest.fn().mockResolvedValue(null),
    })),
  };
  const clock = { now: () => NOW } as Clock;
  const idempotency = new IdempotencyService(db.repository as unknown as IdempotencyRepository, db.write as unknown as OneStatementWrite, clock, {} as never);
  const once = new CreateOnceService(idempotency, receipts as OperationReceiptRows, gates as WriteAccessGate, clock);
  return { once, db, receipts, gates };
}

/** A call as the guard hands it on: the record under `key` as the token's statement read it (committed before the request). */
function callerWith(db: ReturnType<typeof aDatabase>, key: string, grantId = 'g-1'): CallerContext {
  const record = db.records.get(['o-1', 'production', 'a-1', key].join('|')) ?? null;
  return {
    environment: 'production',
    organizationId: 'o-1',
    appId: 'a-1',
    grantId,
    prefetched: { idempotency: { key, record }, references: null },
  } as unknown as CallerContext;
}

const widgetRow = (made: NewResource, input: { code: string }): RowInsert => ({ table: 'widgets', columns: [], values: [made.id, input.code] });

describe('CreateOnceService.create (CONTRACT §6, §7, §8; seed 2.5)', () => {
  it('writes the owner’s rows, then the receipt and its event, under the grant’s gate, as one write; answers seed 2.5’s body', async () => {
    const { once, db, receipts, gates } = aCreateOnce();
    const rows = jest.fn((made: NewResource) => [widgetRow(made, { code: 'W-1' })]);
    const body = await once.create(callerWith(db, 'k-1'), 'k-1', WIDGET, { code: 'W-1', size: 2 }, rows);

    expect(Object.keys(body).sort()).toEqual(['created', 'environment', 'id', 'operation_id', 'replayed']);
    expect(body).toMatchObject({ created: true, replayed: false, environment: 'production' });
    expect(body.id).toMatch(UUID);
    expect(body.operation_id).toMatch(UUID);
    expect(body.id).not.toBe(body.operation_id);
    expect(rows).toHaveBeenCalledWith({
      id: body.id,
      organizationId: 'o-1',
      environment: 'production',
      appId: 'a-1',
      operationId: body.operation_id,
      createdAt: NOW,
    });
    expect(receipts.rowsFor).toHaveBeenCalledWith(expect.anything(), {
      operationId: body.operation_id,
      kind: 'widget.create',
      resourceType: 'widget',
      resourceId: body.id,
      completedAt: NOW,
    });
    expect(gates.gateFor).toHaveBeenCalledWith(expect.anything(), { mandate: false });

    expect(db.written).toHaveLength(1);
    const [{ claim, rows: written, gate }] = db.written;
    expect(written.map((r) => r.table)).toEqual(['widgets', 'operation_receipts']);
    expect(gate?.sql(raw('TRUE')).toQuery().text).toBe('the grant');
    expect(claim.scope).toEqual({ environment: 'production', organizationId: 'o-1', appId: 'a-1', key: 'k-1' });
    // CONTRACT §6: SHA-256 of the RFC 8785 canonical JSON of the operation and the normalized input
    const canonical = '{"input":{"code":"W-1","size":2},"operation":"widget.create"}';
    expect(claim.record).toEqual({
      operation: 'widget.create',
      fingerprint: createHash('sha256').update(canonical).digest('hex'),
      grantId: 'g-1',
      response: body,
    });
  });

  it('replays an identical request (its keys in any order): the first ids, replayed true, no environment; nothing built or written', async () => {
    const { once, db, receipts, gates } = aCreateOnce();
    const rows = jest.fn((made: NewResource) => [widgetRow(made, { code: 'W-1' })]);
    const first = await once.create(callerWith(db, 'k-1'), 'k-1', WIDGET, { code: 'W-1', size: 2 }, rows);
    const again = await once.create(callerWith(db, 'k-1'), 'k-1', WIDGET, { size: 2, code: 'W-1' }, rows);

    expect(again).toEqual({ id: first.id, created: true, operation_id: first.operation_id, replayed: true });
    expect(rows).toHaveBeenCalledTimes(1);
    expect(receipts.rowsFor).toHaveBeenCalledTimes(1);
    expect(gates.gateFor).toHaveBeenCalledTimes(1);
    expect(db.write.run).toHaveBeenCalledTimes(1);
    expect(db.repository.find).not.toHaveBeenCalled();
  });

  it('refuses another input, or another operation, under a used key: 409 idempotency_key_reused, nothing written', async () => {
    const { once, db } = aCreateOnce();
    const rows = (made: NewResource) => [widgetRow(made, { code: 'W-1' })];
    await once.create(callerWith(db, 'k-1'), 'k-1', WIDGET, { code: 'W-1', size: 2 }, rows);

    await expect(once.create(callerWith(db, 'k-1'), 'k-1', WIDGET, { code: 'W-1', size: 3 }, rows)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    await expect(once.create(callerWith(db, 'k-1'), 'k-1', { ...WIDGET, kind: 'gadget.create' }, { code: 'W-1', size: 2 }, rows)).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(db.write.run).toHaveBeenCalledTimes(1);
  });

  it('refuses a production key first used under another grant: 409 idempotency_grant_changed', async () => {
    const { once, db } = aCreateOnce();
    const rows = (made: NewResource) => [widgetRow(made, { code: 'W-1' })];
    await once.create(callerWith(db, 'k-1'), 'k-1', WIDGET, { code: 'W-1' }, rows);
    await expect(once.create(callerWith(db, 'k-1', 'g-2'), 'k-1', WIDGET, { code: 'W-1' }, rows)).rejects.toMatchObject({ code: 'idempotency_grant_changed' });
  });

  it('answers from the record a concurrent identical request committed after the token was read: a replay, or key reuse', async () => {
    const { once, db } = aCreateOnce();
    const rows = (made: NewResource) => [widgetRow(made, { code: 'W-1' })];
    // both requests read the token before either committed
    const [early, late, other] = [callerWith(db, 'k-1'), callerWith(db, 'k-1'), callerWith(db, 'k-1')];
    const first = await once.create(early, 'k-1', WIDGET, { code: 'W-1' }, rows);
    const second = await once.create(late, 'k-1', WIDGET, { code: 'W-1' }, rows);

    expect(second).toEqual({ id: first.id, created: true, operation_id: first.operation_id, replayed: true });
    await expect(once.create(other, 'k-1', WIDGET, { code: 'W-2' }, rows)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(db.written).toHaveLength(1);
  });
});

describe('CreateOnceService.createNumbered (a write that takes a gapless number)', () => {
  const step = { responseKey: 'voucher_number' } as NumberedStep;
  const POSTING = { kind: 'entry.post', resourceType: 'entry', mandate: true };

  it('writes the step, the receipt (naming what the owner says) and its event under the mandate’s gate; the body gets the number', async () => {
    const { once, db, receipts, gates } = aCreateOnce();
    const check = jest.fn(async () => undefined);
    const body = await once.createNumbered(
      callerWith(db, 'k-9'),
      'k-9',
      POSTING,
      { lines: 2 },
      (made) => ({ response: { operation_id: made.operationId, replayed: false, voucher_number: 0 }, step, resourceId: 'batch-1' }),
      check,
    );

    expect(body).toEqual({ operation_id: expect.stringMatching(UUID), replayed: false, voucher_number: 42 });
    expect(check).toHaveBeenCalledTimes(1);
    expect(gates.gateFor).toHaveBeenCalledWith(expect.anything(), { mandate: true });
    expect(receipts.rowsFor).toHaveBeenCalledWith(expect.anything(), {
      operationId: body.operation_id,
      kind: 'entry.post',
      resourceType: 'entry',
      resourceId: 'batch-1',
      completedAt: NOW,
    });
    expect(db.written.map((w) => [w.step, w.rows.map((r) => r.table), w.gate?.sql(raw('TRUE')).toQuery().text])).toEqual([
      [step, ['operation_receipts'], 'the grant and the mandate'],
    ]);

    const again = await once.createNumbered(callerWith(db, 'k-9'), 'k-9', POSTING, { lines: 2 }, () => ({ response: {}, step }), check);
    expect(again).toEqual({ operation_id: body.operation_id, replayed: true, voucher_number: 42 });
    expect(check).toHaveBeenCalledTimes(1);
    expect(db.write.runNumbered).toHaveBeenCalledTimes(1);
  });

  it('names the new resource by made.id unless the owner says otherwise; a failed check writes nothing', async () => {
    const { once, db, receipts } = aCreateOnce();
    const made: NewResource[] = [];
    await once.createNumbered(
      callerWith(db, 'k-1'),
      'k-1',
      POSTING,
      { lines: 1 },
      (m) => (made.push(m), { response: { id: m.id }, step }),
      async () => undefined,
    );
    expect(receipts.rowsFor.mock.calls[0][1].resourceId).toBe(made[0].id);

    const unbalanced = Object.assign(new Error('unbalanced'), { code: 'journal_unbalanced' });
    const failing = once.createNumbered(
      callerWith(db, 'k-2'),
      'k-2',
      POSTING,
      { lines: 3 },
      (m) => ({ response: { id: m.id }, step }),
      async () => {
        throw unbalanced;
      },
    );
    await expect(failing).rejects.toBe(unbalanced);
    expect(db.write.runNumbered).toHaveBeenCalledTimes(1);
  });
});
