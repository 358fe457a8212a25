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
}

/** The row that claims an idempotency key: inserted unless a row with the same conflict columns exists. */
export interface ClaimInsert extends RowInsert {
  readonly conflictColumns: readonly string[];
}

/**
 * A condition the write must still meet when it runs, checked and locked by the same statement: a
 * `SELECT … FOR SHARE` that returns a row while the write is allowed (its parameters numbered from $1).
 * When it returns none, nothing is written and `refusal()` says why.
 */
export interface StatementGate {
  readonly sql: string;
  readonly values: readonly unknown[];
  refusal(): Promise<Error>;
}
