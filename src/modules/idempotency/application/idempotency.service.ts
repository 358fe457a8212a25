import { Inject, Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/domain/transaction';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { OneStatementWrite } from '../../../shared/database/one-statement-write';
import { Transactions } from '../../../shared/database/transactions';
import type { RowInsert, StatementGate } from '../../../shared/domain/row-insert';
import { Clock } from '../../../shared/domain/clock';
import { LockTimeoutError } from '../../../shared/domain/errors';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { requestFingerprint } from '../domain/fingerprint';
import {
  IdempotencyGrantChangedError,
  IdempotencyKeyReusedError,
  IdempotencyRequestInProgressError,
} from '../domain/idempotency.errors';
import { type IdempotencyRecord, IdempotencyRepository, type IdempotencyScope } from '../domain/idempotency.repository';

export interface IdempotentOutcome<R> {
  /** the first execution's body, or the replay body (`replayed: true`, no `environment`) */
  body: R;
  replayed: boolean;
}

/**
 * Exactly-once writes (CONTRACT §6), settled by PostgreSQL so that any number of instances agree:
 *
 * 1. One transaction per request; every session has `lock_timeout` = 10 s (data-source.ts).
 * 2. First statement: INSERT the idempotency record ON CONFLICT DO NOTHING. The primary key
 *    (organization, environment, app, key) makes a concurrent identical request block on the first
 *    one's uncommitted row until that transaction ends:
 *    - first committed → the insert does nothing, we read the committed record and answer
 *      grant changed / key reused / replay, in that order;
 *    - first rolled back (any 4xx or failure stores nothing) → our insert succeeds and we run ourselves;
 *    - still running after 10 s → lock timeout → 409 idempotency_request_in_progress. Only a lock
 *      timeout of this claim statement means that; a lock wait that runs out anywhere else (the voucher
 *      counter, a period row held by a stalled transaction) is 503 service_unavailable (CONTRACT §3, §6).
 * 3. The work (the resource row, the receipt, the outbox row) runs in the same transaction, then the
 *    response is stored on the record; all commit together or not at all.
 *
 * On the embedded PGlite store transactions are serialized by its pool, which gives the same answers.
 */
@Injectable()
export class IdempotencyService {

  constructor(
    private readonly records: IdempotencyRepository,
    private readonly transactions: Transactions,
    private readonly write: OneStatementWrite,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute<R extends Record<string, unknown>>(
    caller: CallerContext,
    key: string,
    operation: string,
    normalizedInput: unknown,
    work: (tx: Transaction) => Promise<R>,
    /** The first execution's body when it is known before the work (saves the record's update). */
    knownResponse?: R,
  ): Promise<IdempotentOutcome<R>> {
    const scope = scopeOf(caller, key);
    const fingerprint = requestFingerprint(operation, normalizedInput);
    const answered = answerFromPrefetched<R>(caller, key, operation, fingerprint);
    if (answered) return answered;
    return this.transactions.run(async (m) => {
      let existing;
      try {
        existing = await this.records.claim(m, scope, {
          operation,
          fingerprint,
          grantId: caller.grantId,
          response: knownResponse ?? null,
        });
      } catch (err) {
        // the claim waits only on the uncommitted record of the same key (its primary key)
        if (err instanceof LockTimeoutError && err.onClaim) throw new IdempotencyRequestInProgressError();
        throw err;
      }
      if (existing) return answerFromRecord<R>(caller, existing, operation, fingerprint);
      const body = await work(m);
      if (knownResponse === undefined) await this.records.complete(m, scope, body);
      return { body, replayed: false };
    });
  }

  /**
   * The same protocol for a write whose rows are all known before it runs (a product create): the
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
    response: R,
    rows: readonly RowInsert[],
    /** a condition the same statement re-checks and locks (the grant, CONTRACT §8) */
    gate: StatementGate | null = null,
  ): Promise<IdempotentOutcome<R>> {
    const scope = scopeOf(caller, key);
    const fingerprint = requestFingerprint(operation, normalizedInput);
    const answered = answerFromPrefetched<R>(caller, key, operation, fingerprint);
    if (answered) return answered;
    let claimed: boolean;
    try {
      claimed = await this.write.run(this.records.claimRow(scope, { operation, fingerprint, grantId: caller.grantId, response }), rows, gate);
    } catch (err) {
      // in progress only when the wait was on this key's record; a wait on the gate's rows is a 503 (§3)
      if (err instanceof LockTimeoutError && err.onClaim) {
        throw new IdempotencyRequestInProgressError();
      }
      throw err;
    }
    if (claimed) return { body: response, replayed: false };
    const existing = await this.records.find(scope);
    if (!existing) throw new Error('idempotency record vanished after a conflict on its key');
    return answerFromRecord<R>(caller, existing, operation, fingerprint);
  }

  /** Deletes records older than the retention, in batches; safe on several instances at once. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.idempotencyRetentionHours * 3_600_000);
    let total = 0;
    for (;;) {
      const n = await this.records.purgeCreatedBefore(cutoff, 1000);
      total += n;
      if (n < 1000) return total;
    }
  }
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
