import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { OneStatementWrite } from '../../../shared/database/one-statement-write';
import type { NumberedStep, RowInsert, StatementGate } from '../../../shared/domain/row-insert';
import { pacedBatches } from '../../../shared/database/paced-batches';
import { Clock } from '../../../shared/domain/clock';
import { DomainError, LockTimeoutError, ServiceUnavailableError } from '../../../shared/domain/errors';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { requestFingerprint } from '../domain/fingerprint';
import { IdempotencyGrantChangedError, IdempotencyKeyReusedError, IdempotencyRequestInProgressError } from '../domain/idempotency.errors';
import { type IdempotencyRecord, IdempotencyRepository, type IdempotencyScope } from '../domain/idempotency.repository';

/** What a first execution writes in one statement (executeAsOneStatement). */
export interface OneStatementExecution<R> {
  /** the first execution's body, stored with the claim */
  response: R;
  rows: readonly RowInsert[];
  /** a condition the same statement re-checks and locks (the grant, CONTRACT §8) */
  gate: StatementGate | null;
}

/** What a first execution that takes a gapless number writes in one statement (executeNumbered). */
export interface NumberedExecution<R> extends OneStatementExecution<R> {
  /** the owner's numbered step (the voucher number), merged into `response` under its `responseKey` */
  step: NumberedStep;
}

export interface IdempotentOutcome<R> {
  /** the first execution's body, or the replay body (`replayed: true`, no `environment`) */
  body: R;
  replayed: boolean;
}

/**
 * Exactly-once writes (CONTRACT §6), settled by PostgreSQL so that any number of instances agree:
 *
 * 1. A key whose record was committed before the request came is answered from the record read with
 *    the token: grant changed / key reused / replay, in that order — no write at all.
 * 2. Otherwise the claim (the record, with the first execution's response) and the write's rows go to
 *    the database as ONE statement, atomic without an explicit transaction. The primary key
 *    (organization, environment, app, key) makes a concurrent identical request wait on the first
 *    one's uncommitted record until its statement ends:
 *    - first committed → this statement writes nothing; the committed record answers as in 1;
 *    - first failed (any 4xx or fault stores nothing) → this statement writes;
 *    - still running after `lock_timeout` (10 s, data-source.ts) → 409 idempotency_request_in_progress.
 *      Only a wait on this key's record means that; a lock wait that runs out anywhere else (the
 *      voucher counter, a period row, a grant held by a stalled transaction) is 503 service_unavailable
 *      (CONTRACT §3, §6).
 *
 * On the embedded PGlite store statements are serialized by its pool, which gives the same answers.
 * Modules write through CreateOnceService, which makes the first execution (ids, receipt, gate) for these two.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly write: OneStatementWrite,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A write whose rows are all known before it runs (a product create): the
   * claim and the rows go to the database as ONE statement (OneStatementWrite), so a first execution
   * is one round trip and a replay none beyond the token's. A key committed meanwhile by a concurrent
   * identical request is answered from its record; the gate, when given, is checked first (a
   * revocation wins over the key's record too).
   */
  async executeAsOneStatement<R extends Record<string, unknown>>(
    caller: CallerContext,
    key: string,
    operation: string,
    normalizedInput: unknown,
    /** the first execution: built only when no committed record answers the request (a replay builds nothing) */
    build: () => OneStatementExecution<R>,
  ): Promise<IdempotentOutcome<R>> {
    const scope = scopeOf(caller, key);
    const fingerprint = requestFingerprint(operation, normalizedInput);
    // 1. a record committed before this request came, read with the token: answered, nothing written or built
    const answered = answerFromPrefetched<R>(caller, key, operation, fingerprint);
    if (answered) return answered;
    // 2. the first execution, built only now (a replay never pays for its ids and rows)
    const { response, rows, gate } = build();
    // 3. the gate, the claim and the rows as ONE statement: true when this request claimed the key
    let claimed: boolean;
    try {
      claimed = await this.write.run(this.records.claimRow(scope, { operation, fingerprint, grantId: caller.grantId, response }), rows, gate);
    } catch (err) {
      throw inProgressOr(err);
    }
    if (claimed) return { body: response, replayed: false };
    // 4. nothing written: a concurrent identical request committed the key first; its record answers
    return this.answerCommitted<R>(caller, scope, operation, fingerprint);
  }

  /**
   * The same protocol for a write that takes a gapless number (a final posting): the gate, the
   * owner's numbered step, the claim (its stored response completed with the number) and the rows go
   * to the database as ONE statement (OneStatementWrite.runNumbered). A key committed meanwhile by a
   * concurrent identical request aborts the statement — its number is not used up — and is answered
   * from its record. The execution's `response` is the first execution's body without the number.
   */
  async executeNumbered<R extends Record<string, unknown>>(
    caller: CallerContext,
    key: string,
    operation: string,
    normalizedInput: unknown,
    /** the first execution: built only when no committed record answers the request (a replay builds nothing) */
    build: () => NumberedExecution<R>,
    /** the write's own checks, run once a committed record did not answer the request (may throw) */
    check: () => Promise<void>,
  ): Promise<IdempotentOutcome<R>> {
    const scope = scopeOf(caller, key);
    const fingerprint = requestFingerprint(operation, normalizedInput);
    // 1. a record committed before this request came, read with the token: answered, nothing written or built
    const answered = answerFromPrefetched<R>(caller, key, operation, fingerprint);
    if (answered) return answered;
    // 2. the first execution, built only now (a replay never pays for its ids and rows)
    const { response, step, rows, gate } = build();
    // 3. the write's own checks (CONTRACT §3 step 7); when they fail, access and the key's record still win
    try {
      await check();
    } catch (err) {
      return this.answerFailedCheck<R>(err, gate, caller, scope, operation, fingerprint);
    }
    // 4. the gate, the numbered step, the claim and the rows as ONE statement: the number taken, or null
    let n: number | null;
    try {
      n = await this.write.runNumbered(this.records.claimRow(scope, { operation, fingerprint, grantId: caller.grantId, response }), step, rows, gate);
    } catch (err) {
      throw inProgressOr(err);
    }
    if (n !== null) return { body: withNumber(response, step, n), replayed: false };
    // 5. nothing written, no number used up: a concurrent identical request committed the key first
    return this.answerCommitted<R>(caller, scope, operation, fingerprint);
  }

  /**
   * CONTRACT §3 when the write's own checks (step 7) failed: access (step 3) and the key's record (step 6)
   * come first — a revocation, or a record committed meanwhile by a concurrent request, wins over the
   * check's error. A fault (not a DomainError, or a 503) is thrown as it is.
   */
  private async answerFailedCheck<R>(
    err: unknown,
    gate: StatementGate | null,
    caller: CallerContext,
    scope: IdempotencyScope,
    operation: string,
    fingerprint: string,
  ): Promise<IdempotentOutcome<R>> {
    if (!(err instanceof DomainError) || err instanceof ServiceUnavailableError) throw err;
    const revoked = gate ? await gate.failure() : null;
    if (revoked) throw revoked;
    const existing = await this.records.find(scope);
    if (existing) return answerFromRecord<R>(caller, existing, operation, fingerprint);
    throw err;
  }

  /** The answer of the record a concurrent identical request committed under the key (CONTRACT §6). */
  private async answerCommitted<R>(caller: CallerContext, scope: IdempotencyScope, operation: string, fingerprint: string): Promise<IdempotentOutcome<R>> {
    const existing = await this.records.find(scope);
    if (!existing) throw new Error('idempotency record vanished after a conflict on its key');
    return answerFromRecord<R>(caller, existing, operation, fingerprint);
  }

  /**
   * Deletes records older than the retention, in batches, until none is left or `stopping()` says so;
   * safe on several instances at once.
   */
  async purgeExpired(stopping?: () => boolean): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.idempotencyRetentionHours * 3_600_000);
    // paced (pacedBatches): a backlog is worked off at half speed rather than crowding out the writes
    return pacedBatches(1000, (size) => this.records.purgeCreatedBefore(cutoff, size), stopping);
  }
}

/**
 * A failed one-statement write as the client is told it (CONTRACT §3, §6): a lock wait that ran out on
 * this key's record (a concurrent identical request still running) is 409 idempotency_request_in_progress;
 * a lock wait anywhere else (the gate's rows, the voucher counter, a period) stays the 503 it is.
 */
export function inProgressOr(err: unknown): unknown {
  return err instanceof LockTimeoutError && err.onClaim ? new IdempotencyRequestInProgressError() : err;
}

/** The first execution's body with the number its statement took, under the step's `responseKey` (or as its `complete` puts it). */
export function withNumber<R extends Record<string, unknown>>(response: R, step: NumberedStep, n: number): R {
  return (step.response ? step.response.complete(response, n) : { ...response, [step.responseKey]: n }) as R;
}

function scopeOf(caller: CallerContext, key: string): IdempotencyScope {
  return { environment: caller.environment, organizationId: caller.organizationId, appId: caller.appId, key };
}

/** A record committed before this request came (read with the token) is answered without a transaction. */
function answerFromPrefetched<R>(caller: CallerContext, key: string, operation: string, fingerprint: string): IdempotentOutcome<R> | null {
  const prefetched = caller.prefetched.idempotency;
  if (prefetched?.key !== key || !prefetched.record) return null;
  return answerFromRecord<R>(caller, prefetched.record, operation, fingerprint);
}

/** CONTRACT §6, a committed record under the key: grant changed, then key reused, then the replay. */
function answerFromRecord<R>(
  caller: CallerContext,
  existing: Pick<IdempotencyRecord, 'operation' | 'fingerprint' | 'grantId' | 'response'>,
  operation: string,
  fingerprint: string,
): IdempotentOutcome<R> {
  // a new sandbox generation keeps the app, so only production grants can change
  if (caller.environment === 'production' && existing.grantId !== caller.grantId) {
    throw new IdempotencyGrantChangedError();
  }
  if (existing.operation !== operation || existing.fingerprint !== fingerprint) {
    throw new IdempotencyKeyReusedError();
  }
  const { environment: _omitted, ...rest } = existing.response;
  return { body: { ...rest, replayed: true } as unknown as R, replayed: true };
}
