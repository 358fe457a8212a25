import { Injectable } from '@nestjs/common';
import { LockTimeoutError, ServiceUnavailableError } from '../domain/errors';
import type { ClaimInsert, NumberedStep, RowInsert, StatementGate } from '../domain/row-insert';
import { lockWaitedOn, uniqueViolation } from './database-failure';
import { Sql } from './sql';

/**
 * The statement text and its parameters: the gate (when given), the claim only if the gate let it
 * through, then every other row only if the claim was inserted.
 */
export function oneStatement(
  claim: ClaimInsert,
  rows: readonly RowInsert[],
  gate: Pick<StatementGate, 'sql' | 'values'> | null = null,
): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let gateCte = '';
  if (gate) {
    const offset = values.length;
    values.push(...gate.values);
    gateCte = `gate AS (${gate.sql.replace(/\$(\d+)/g, (_, n: string) => `$${offset + Number(n)}`)}),\n`;
  }
  const params = (row: RowInsert): string => {
    if (row.values.length !== row.columns.length) throw new Error(`${row.table}: ${row.values.length} values for ${row.columns.length} columns`);
    return row.columns.map(([, type], i) => `$${values.push(row.values[i])}::${type}`).join(', ');
  };
  const columns = (row: RowInsert): string => row.columns.map(([name]) => name).join(', ');
  const claimSource = gate ? `SELECT ${params(claim)} FROM gate` : `VALUES (${params(claim)})`;
  const ctes = [
    `claim AS (INSERT INTO ${claim.table} (${columns(claim)}) ${claimSource}
       ON CONFLICT (${claim.conflictColumns.join(', ')}) DO NOTHING RETURNING 1)`,
    ...rows.map((row, i) => `r${i} AS (INSERT INTO ${row.table} (${columns(row)}) SELECT ${params(row)} FROM claim)`),
  ];
  const allowed = gate ? '(SELECT count(*) FROM gate)::int' : '1';
  return { text: `WITH ${gateCte}${ctes.join(',\n')}\nSELECT ${allowed} AS allowed, count(*)::int AS claimed FROM claim`, values };
}

/** `$n` → `$(n + offset)`: a part's parameters, numbered from $1, placed after those before it. */
function renumber(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${offset + Number(n)}`);
}

/**
 * The statement of a numbered write: the gate (when given), the owner's step (which takes the number
 * only if the gate and its own condition let it), the claim — a plain INSERT, so that a key committed
 * meanwhile aborts the whole statement with a unique violation and the number is not used up — with
 * the number merged into its stored response, then every other row only if the claim was inserted.
 */
export function numberedStatement(
  claim: ClaimInsert,
  step: Pick<NumberedStep, 'ctes' | 'values' | 'report' | 'responseKey'>,
  rows: readonly RowInsert[],
  gate: Pick<StatementGate, 'sql' | 'values'> | null = null,
): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const ctes: string[] = [];
  if (gate) {
    values.push(...gate.values);
    ctes.push(`gate AS (${gate.sql})`);
  }
  const source = gate ? 'gate' : '(VALUES (1)) AS source(one)';
  ctes.push(renumber(step.ctes, values.length).replace(/\{source\}/g, source));
  values.push(...step.values);
  const params = (row: RowInsert): string => {
    if (row.values.length !== row.columns.length) throw new Error(`${row.table}: ${row.values.length} values for ${row.columns.length} columns`);
    return row.columns
      .map(([name, type], i) => {
        const param = `$${values.push(row.values[i])}::${type}`;
        return row === claim && name === claim.responseColumn
          ? `${param} || jsonb_build_object('${step.responseKey.replace(/'/g, "''")}', numbered.n)`
          : param;
      })
      .join(', ');
  };
  const columns = (row: RowInsert): string => row.columns.map(([name]) => name).join(', ');
  ctes.push(`claim AS (INSERT INTO ${claim.table} (${columns(claim)}) SELECT ${params(claim)} FROM numbered RETURNING 1)`);
  rows.forEach((row, i) => ctes.push(`r${i} AS (INSERT INTO ${row.table} (${columns(row)}) SELECT ${params(row)} FROM claim)`));
  const allowed = gate ? '(SELECT count(*) FROM gate)::int' : '1';
  return { text: `WITH ${ctes.join(',\n')}\nSELECT ${allowed} AS allowed, (SELECT n FROM numbered) AS n, ${step.report}`, values };
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
  constructor(private readonly sql: Sql) {}

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
    return result.claimed === 1;
  }

  /**
   * A numbered write as one statement (numberedStatement): the number taken, or null when the claim's
   * key was committed meanwhile (nothing written, the number not used up). Throws the gate's refusal
   * or the step's; a step that could not decide is run again (at most three times).
   */
  async runNumbered(
    claim: ClaimInsert,
    step: NumberedStep,
    rows: readonly RowInsert[],
    gate: StatementGate | null = null,
  ): Promise<number | null> {
    const { text, values } = numberedStatement(claim, step, rows, gate);
    for (let attempt = 1; ; attempt++) {
      let result: Record<string, unknown> & { allowed: number; n: number | string | null };
      try {
        [result] = await this.sql.query<Record<string, unknown> & { allowed: number; n: number | string | null }>(text, values);
      } catch (err) {
        const unique = uniqueViolation(err);
        if (unique) {
          if (unique.table === claim.table) return null;
          const meant = rows.find((row) => row.table === unique.table)?.onUniqueViolation;
          if (meant) throw meant();
        }
        // a wait on the claim's own key (a concurrent request with it) as opposed to one on other rows
        if (err instanceof LockTimeoutError && lockWaitedOn(err, claim.table)) throw new LockTimeoutError(err.cause, true);
        throw err;
      }
      if (gate && result.allowed === 0) throw await gate.refusal();
      if (result.n !== null) return Number(result.n);
      const refusal = step.refusal(result);
      if (refusal !== 'retry') throw refusal;
      if (attempt === 3) throw new ServiceUnavailableError();
    }
  }
}
