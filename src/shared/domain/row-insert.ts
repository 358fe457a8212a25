import type { SqlFragment } from '../database/sql-template';

/**
 * One row that a write inserts, described by the module that owns its table, so that the rows of
 * several modules can be written by one statement (OneStatementWrite) without any module writing
 * SQL against another's table.
 */
export interface RowInsert {
  readonly table: string;
  /** [column, PostgreSQL type]: every value is cast to its column's type */
  readonly columns: ReadonlyArray<readonly [column: string, type: string]>;
  readonly values: readonly unknown[];
  /** what a unique violation on this table means to the caller (e.g. a product code taken) */
  readonly onUniqueViolation?: () => Error;
  /** told in this process once the row is committed (after its statement, or its batch's COMMIT); never when nothing was written */
  readonly committed?: () => void;
}

/** The row that claims an idempotency key: inserted unless a row with the same conflict columns exists. */
export interface ClaimInsert extends RowInsert {
  readonly conflictColumns: readonly string[];
  /** the jsonb column holding the stored response (a numbered write adds its number there) */
  readonly responseColumn: string;
}

/**
 * A condition the write must still meet when it runs, checked and locked by the same statement: a
 * `SELECT … FOR SHARE` that returns a row while the write is allowed. When it returns none, nothing is
 * written and `refusal()` says why.
 */
export interface StatementGate {
  /**
   * The gate's query, which locks its rows only after `after`: the composing statement's condition
   * "every lock wait before the gate is over" (e.g. the voucher counter locked; `TRUE` where nothing
   * comes first).
   */
  sql(after: SqlFragment): SqlFragment;
  refusal(): Promise<Error>;
  /** The same condition judged now, outside the statement: the first failing check, or null. */
  failure(): Promise<Error | null>;
}

/**
 * The owner's part of a write that takes the next number of a gapless counter (a voucher number) in
 * the same statement as its rows. `ctes(source)` (comma-separated CTE definitions) read `source`, which
 * stands for the gate's rows (one row when there is no gate), and define `numbered`: one row with column
 * `n` when the write goes ahead, none when the owner's own condition stops it (a closed period). Rows of
 * `ctes` that need the number read `numbered`.
 */
export interface NumberedStep {
  ctes(source: SqlFragment): SqlFragment;
  /** select-list items added to the statement's result (e.g. why `numbered` is empty) */
  readonly report: SqlFragment;
  /** the key of the claim's stored response that receives the number */
  readonly responseKey: string;
  /**
   * What the claim's stored response gets from the step when the number alone is not it: a jsonb SQL
   * expression over the columns of `numbered` (e.g. a name made from the number), and the same merge of
   * the first execution's body. Default: `{ [responseKey]: n }`.
   */
  readonly response?: { readonly sql: SqlFragment; complete(body: Record<string, unknown>, n: number): Record<string, unknown> };
  /**
   * Locks the counters the step numbers from, before anything else of the statement is locked (the
   * gate's rows come after them, so a write waiting for a counter holds nothing a revocation needs).
   * `names` name each counter (e.g. 'voucher <organization> 2026'): the statement first takes a
   * transaction advisory lock per name, in one order every statement shares (by the names' hashes),
   * so two writes of overlapping counters never wait for each other both ways, also when one of them
   * cannot see a counter another committed after it began (a year's first posting), which row locks
   * alone, taken in the order of the rows each statement sees, could not promise. `rows` is a query
   * whose rows are the counters', locked FOR UPDATE, with `lockTimeout` in its WHERE: the condition
   * that sets the statement's remaining lock wait.
   */
  readonly counterLock?: { readonly names: readonly string[]; rows(lockTimeout: SqlFragment): SqlFragment };
  /**
   * Names the counter the step numbers from (e.g. an organization's year): writes of one lane may run
   * several to a transaction, since each would wait for the one before it anyway.
   */
  readonly lane?: string;
  /**
   * Why nothing was written when the gate let the write through but `numbered` stayed empty, from
   * the result row: an error, or 'retry' when the statement could not decide (run it again).
   */
  refusal(result: Record<string, unknown>): Error | 'retry';
  /** Told the result row each time the statement took its number (the last call is the committed one). */
  decided?(result: Record<string, unknown>): void;
  /** What a unique violation of the step's own rows means to the caller (by constraint), or null for a defect. */
  uniqueViolation?(constraint: string | undefined): Error | null;
}
