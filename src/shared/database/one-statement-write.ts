import { Injectable } from '@nestjs/common';
import { LockTimeoutError, ServiceUnavailableError } from '../domain/errors';
import type { ClaimInsert, NumberedStep, RowInsert, StatementGate } from '../domain/row-insert';
import { LOCK_TIMEOUT_MS } from './data-source';
import { lockWaitedOn, uniqueViolation } from './database-failure';
import { NumberedBatches, type Pending } from './numbered-batches';
import { Sql } from './sql';
import { bind, join, raw, sql, SqlFragment } from './sql-template';

/**
 * `INSERT INTO table (columns) VALUES (…)`, or `SELECT … FROM from` when given, each value a parameter
 * cast to its column's type; a column's parameter optionally wrapped (the claim's response, which a
 * numbered write merges its number into).
 */
function insertOf(row: RowInsert, from: SqlFragment | null, wrap?: (column: string, param: SqlFragment) => SqlFragment): SqlFragment {
  if (row.values.length !== row.columns.length) throw new Error(`${row.table}: ${row.values.length} values for ${row.columns.length} columns`);
  if (!wrap && row.columns.length > 0) {
    // an undefined value stays what node-postgres makes of it: NULL
    const parts: unknown[] = row.values.map((value) => value ?? null);
    if (from !== null) parts.push(from);
    return new SqlFragment(insertStrings(row, from !== null), parts);
  }
  const params = row.columns.map(([name, type], i) => {
    // an undefined value stays what node-postgres makes of it: NULL
    const param = sql`${row.values[i] ?? null}::${raw(type)}`;
    return wrap ? wrap(name, param) : param;
  });
  const select = from === null ? sql`VALUES (${join(params)})` : sql`SELECT ${join(params)} FROM ${from}`;
  return sql`INSERT INTO ${raw(row.table)} (${raw(row.columns.map(([name]) => name).join(', '))}) ${select}`;
}

/** The strings of a row's INSERT around its values (and the SELECT's source), per columns list and form. */
const INSERT_STRINGS = new WeakMap<object, { table: string; values: readonly string[]; select: readonly string[] }>();

/**
 * The strings between a row's values in `INSERT INTO table (columns) VALUES ($1::type, …)`, or in `… SELECT $1::type, …
 * FROM ` followed by the source, as insertOf writes them: the same text as one fragment per value, made once per
 * columns list (each owner's constant), so that a write's statement is not rebuilt from a fragment per column.
 */
function insertStrings(row: RowInsert, select: boolean): readonly string[] {
  let made = INSERT_STRINGS.get(row.columns);
  if (made === undefined || made.table !== row.table) {
    const names = row.columns.map(([name]) => name).join(', ');
    const casts = row.columns.map(([, type]) => `::${type}`);
    const between = casts.slice(0, -1).map((cast) => `${cast}, `);
    const last = casts[casts.length - 1] ?? '';
    made = {
      table: row.table,
      values: [`INSERT INTO ${row.table} (${names}) VALUES (`, ...between, `${last})`],
      select: [`INSERT INTO ${row.table} (${names}) SELECT `, ...between, `${last} FROM `, ''],
    };
    INSERT_STRINGS.set(row.columns, made);
  }
  return select ? made.select : made.values;
}

/** The CTEs of every other row, each inserted only if the claim was. */
const rowsAfterClaim = (rows: readonly RowInsert[]): SqlFragment[] => rows.map((row, i) => sql`r${raw(String(i))} AS (${insertOf(row, raw('claim'))})`);

/** 1 when the gate let the write through (always, without a gate). */
const allowedBy = (gate: Pick<StatementGate, 'sql'> | null): SqlFragment => raw(gate ? '(SELECT count(*) FROM gate)::int' : '1');

/**
 * The statement text and its parameters: the gate (when given), the claim only if the gate let it
 * through, then every other row only if the claim was inserted.
 */
export function oneStatement(
  claim: ClaimInsert,
  rows: readonly RowInsert[],
  gate: Pick<StatementGate, 'sql'> | null = null,
): { text: string; values: unknown[] } {
  const ctes: SqlFragment[] = [];
  // nothing is locked before the gate
  if (gate) ctes.push(sql`gate AS (${gate.sql(raw('TRUE'))})`);
  ctes.push(sql`claim AS (${insertOf(claim, gate ? raw('gate') : null)}
       ON CONFLICT (${raw(claim.conflictColumns.join(', '))}) DO NOTHING RETURNING 1)`);
  ctes.push(...rowsAfterClaim(rows));
  const { text, values } = sql`WITH ${join(ctes, ',\n')}\nSELECT ${allowedBy(gate)} AS allowed, count(*)::int AS claimed FROM claim`.toQuery();
  return { text, values };
}

/**
 * The statement of a numbered write: the counter locked first (when the step names it; the statement's
 * remaining lock wait set just before, see OneStatementWrite.runNumbered), then the gate (when given),
 * which locks its rows only once the counter is held, so a write waiting for the counter holds nothing
 * a revocation would wait for (CONTRACT §8), the owner's step (which takes the number only if the gate
 * and its own condition let it), the claim — a plain INSERT, so that a key committed meanwhile aborts
 * the whole statement with a unique violation and the number is not used up — with the number merged
 * into its stored response, then every other row only if the claim was inserted. `lockTimeoutAt` is
 * the index in `values` of the lock wait in milliseconds (text), or -1.
 */
export function numberedStatement(
  claim: ClaimInsert,
  step: Pick<NumberedStep, 'ctes' | 'report' | 'responseKey' | 'counterLock' | 'response'>,
  rows: readonly RowInsert[],
  gate: Pick<StatementGate, 'sql'> | null = null,
): { text: string; values: unknown[]; lockTimeoutAt: number } {
  const ctes: SqlFragment[] = [];
  const lockWait = step.counterLock ? bind(String(LOCK_TIMEOUT_MS)) : null;
  if (step.counterLock) {
    // first in the WITH list, so that the gate's CTE can name it; evaluated when the gate asks: the
    // counters' advisory locks in the order of their keys (the one-time filter, before any row), then their rows
    const lockTimeout = sql`set_config('lock_timeout', ${lockWait}::text, true) IS NOT NULL`;
    const names = [...new Set(step.counterLock.names)];
    if (names.length === 0) throw new Error('a counter lock names its counters');
    const keys = sql`(SELECT count(*) FROM (SELECT pg_advisory_xact_lock(k) FROM (SELECT hashtextextended(t, 0) AS k FROM unnest(${names}::text[]) AS t
                 WHERE ${lockTimeout} ORDER BY k) AS ordered) AS held) IS NOT NULL`;
    ctes.push(sql`counter_lock AS (SELECT count(*) AS locked FROM (${step.counterLock.rows(lockTimeout)}) AS counter WHERE ${keys})`);
  }
  if (gate) ctes.push(sql`gate AS (${gate.sql(raw(step.counterLock ? '(SELECT locked FROM counter_lock) IS NOT NULL' : 'TRUE'))})`);
  ctes.push(step.ctes(raw(gate ? 'gate' : '(VALUES (1)) AS source(one)')));
  const key = step.responseKey.replace(/'/g, "''");
  const merged = step.response?.sql ?? raw(`jsonb_build_object('${key}', numbered.n)`);
  const claimInsert = insertOf(claim, raw('numbered'), (column, param) => (column === claim.responseColumn ? sql`${param} || ${merged}` : param));
  ctes.push(sql`claim AS (${claimInsert} RETURNING 1)`);
  ctes.push(...rowsAfterClaim(rows));
  const query = sql`WITH ${join(ctes, ',\n')}\nSELECT ${allowedBy(gate)} AS allowed, (SELECT n FROM numbered) AS n, ${step.report}`.toQuery();
  return { text: query.text, values: query.values, lockTimeoutAt: lockWait ? query.indexOf(lockWait) : -1 };
}

/**
 * A write of several modules' rows as ONE statement outside any explicit transaction: PostgreSQL runs
 * a single statement atomically, so the rows commit together or not at all, in one round trip instead
 * of BEGIN, one statement per row and COMMIT. When the claim's key is held by a concurrent
 * uncommitted insert, the statement waits for that transaction (lock_timeout bounds the wait) and then
 * either inserts (it rolled back) or inserts nothing (it committed).
 */
@Injectable()
export class OneStatementWrite {
  private readonly batches: NumberedBatches<NumberedWrite, number | null>;

  constructor(private readonly sql: Sql) {
    this.batches = new NumberedBatches(
      (write) => this.runAlone(write),
      (pending) => this.runBatch(pending),
    );
  }

  /**
   * True when the claim and every row were inserted, false when the claim's key existed (nothing
   * written); the gate's refusal when it returned no row (nothing written).
   */
  async run(claim: ClaimInsert, rows: readonly RowInsert[], gate: StatementGate | null = null): Promise<boolean> {
    const { text, values } = oneStatement(claim, rows, gate);
    let result: { allowed: number; claimed: number };
    try {
      [result] = await this.sql.query<{ allowed: number; claimed: number }>(text, values);
    } catch (err) {
      const unique = uniqueViolation(err);
      if (unique) {
        const meant = [claim, ...rows].find((row) => row.table === unique.table)?.onUniqueViolation;
        if (meant) throw meant();
      }
      // a wait on the claim's own key (a concurrent request with it) as opposed to one on the gate's rows
      if (err instanceof LockTimeoutError && lockWaitedOn(err, claim.table)) throw new LockTimeoutError(err.cause, true);
      throw err;
    }
    if (gate && result.allowed === 0) throw await gate.refusal();
    if (result.claimed !== 1) return false;
    toldCommitted(rows);
    return true;
  }

  /**
   * A numbered write as one statement (numberedStatement): the number taken, or null when the claim's
   * key was committed meanwhile (nothing written, the number not used up). Throws the gate's refusal
   * or the step's; a step that could not decide is run again (at most three times).
   *
   * Writes of the same `step.lane` (one counter) queue behind each other in this process: while one
   * runs, those that come meanwhile wait and then run together as ONE transaction, each still its own
   * statement (NumberedBatches). Every write of a counter waits for the counter's row lock until the
   * write before it has committed, so without this each one would also wait for the flush of the
   * previous commit; a batch shares one.
   */
  runNumbered(claim: ClaimInsert, step: NumberedStep, rows: readonly RowInsert[], gate: StatementGate | null = null): Promise<number | null> {
    // one deadline for every lock wait of this write, however often it runs (batched, then alone)
    const write: NumberedWrite = { ...numberedStatement(claim, step, rows, gate), claim, step, rows, gate, deadline: Date.now() + LOCK_TIMEOUT_MS };
    // a number is answered only once the write committed (alone: its statement; batched: the batch's COMMIT)
    return (step.lane === undefined ? this.runAlone(write) : this.batches.submit(step.lane, write)).then((n) => {
      if (n !== null) toldCommitted(rows);
      return n;
    });
  }

  /** One numbered write as one statement outside any transaction. */
  private async runAlone(write: NumberedWrite): Promise<number | null> {
    let decided: Decision;
    try {
      decided = await decideWith((text, values) => this.sql.query<NumberedResult>(text, values), write);
    } catch (err) {
      if (isClaimTaken(write, err)) return null;
      throw await asWriteError(write, err);
    }
    return settled(decided);
  }

  /**
   * Several numbered writes of one counter as ONE transaction, each its own statement in the order
   * they came. A refusal (gate, closed period) writes nothing and does not stop the others. When a
   * statement fails, the transaction is rolled back: a lock wait that ran out is that write's answer
   * (as alone), and every other write is run again alone, where a key committed or claimed meanwhile
   * (also by a write of the same batch) is answered as it would have been. A failed COMMIT is every
   * write's answer: whether it committed cannot be known.
   */
  private async runBatch(pending: ReadonlyArray<Pending<NumberedWrite, number | null>>): Promise<void> {
    const decisions: Decision[] = [];
    let failedAt = -1;
    let committing = false;
    try {
      await this.sql.session(async (query) => {
        await query('BEGIN');
        try {
          for (const { write } of pending) {
            failedAt = decisions.length;
            decisions.push(await decideWith(query, write));
          }
          failedAt = -1;
        } catch (err) {
          await query('ROLLBACK').catch(() => undefined);
          throw err;
        }
        committing = true;
        await query('COMMIT');
      });
    } catch (err) {
      if (committing) {
        for (const p of pending) p.reject(err);
        return;
      }
      await Promise.all(
        pending.map((p, at) =>
          at === failedAt && err instanceof LockTimeoutError ? asWriteError(p.write, err).then(p.reject) : this.runAlone(p.write).then(p.resolve, p.reject),
        ),
      );
      return;
    }
    for (const [at, decided] of decisions.entries()) settled(decided).then(pending[at].resolve, pending[at].reject);
  }
}

/** Tells each row that wants to know that it was committed (RowInsert.committed). */
function toldCommitted(rows: readonly RowInsert[]): void {
  for (const row of rows) row.committed?.();
}

interface NumberedWrite {
  readonly text: string;
  readonly values: unknown[];
  readonly claim: ClaimInsert;
  readonly step: NumberedStep;
  readonly rows: readonly RowInsert[];
  readonly gate: StatementGate | null;
  /** the index in `values` of the lock wait (ms) the statement sets, or -1 */
  readonly lockTimeoutAt: number;
  /** when this write's lock waits run out, all runs together (Date.now() ms) */
  readonly deadline: number;
}

type NumberedResult = Record<string, unknown> & { allowed: number; n: number | string | null };

/** What one statement of a numbered write decided: its number, or why nothing was written. */
type Decision = { n: number } | { refused: () => Promise<Error> | Error };

function decide(write: NumberedWrite, result: NumberedResult, attempt: number): Decision | 'retry' {
  const { gate, step } = write;
  if (gate && result.allowed === 0) return { refused: () => gate.refusal() };
  if (result.n !== null) {
    step.decided?.(result);
    return { n: Number(result.n) };
  }
  const refusal = step.refusal(result);
  if (refusal !== 'retry') return { refused: () => refusal };
  if (attempt === 3) return { refused: () => new ServiceUnavailableError() };
  return 'retry';
}

/** Runs the write's statement (again, with a new snapshot, while undecided) through `query`. */
async function decideWith(query: (text: string, values: unknown[]) => Promise<NumberedResult[]>, write: NumberedWrite): Promise<Decision> {
  for (let attempt = 1; ; attempt++) {
    if (write.lockTimeoutAt >= 0) {
      const left = write.deadline - Date.now();
      // 0 would mean no limit at all
      if (left < 1) throw new LockTimeoutError(new Error('the lock waits of this write took its whole lock timeout'));
      write.values[write.lockTimeoutAt] = String(left);
    }
    const [result] = await query(write.text, write.values);
    const decided = decide(write, result, attempt);
    if (decided !== 'retry') return decided;
  }
}

async function settled(decided: Decision): Promise<number> {
  if ('n' in decided) return decided.n;
  throw await decided.refused();
}

/** A key committed meanwhile: the statement aborted on the claim's unique index, nothing written. */
function isClaimTaken(write: NumberedWrite, err: unknown): boolean {
  return uniqueViolation(err)?.table === write.claim.table;
}

/**
 * A failed statement's error as the caller's answer. A lock wait that ran out on other rows (e.g. the
 * voucher counter) is the gate's refusal when the write is no longer allowed (CONTRACT §8: a write
 * revoked while it waited fails as revoked), else 503.
 */
async function asWriteError(write: NumberedWrite, err: unknown): Promise<unknown> {
  const unique = uniqueViolation(err);
  const meant = write.rows.find((row) => row.table === unique?.table)?.onUniqueViolation;
  if (meant) return meant();
  const stepMeant = unique && write.step.uniqueViolation?.(unique.constraint);
  if (stepMeant) return stepMeant;
  // a wait on the claim's own key (a concurrent request with it) as opposed to one on other rows
  if (err instanceof LockTimeoutError && lockWaitedOn(err, write.claim.table)) return new LockTimeoutError(err.cause, true);
  if (err instanceof LockTimeoutError && write.gate) {
    const failure = await write.gate.failure().catch(() => null);
    if (failure) return failure;
  }
  return err;
}
