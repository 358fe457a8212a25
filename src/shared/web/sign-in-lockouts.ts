import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { managerOf, Transactions } from '../database/transactions';
import { clientAddressGroup } from '../http/client-address';
import { Clock } from '../domain/clock';
import { normalizeEmail, SIGN_IN_LOCKOUT_MS, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS, slowdownMs } from './sign-in-lockout';

const date = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/**
 * The key a sign-in's failures are counted under: who signs in where (`realm`: `owner` on the consent
 * pages, `developer` on the developer console) and the email, compared without regard to case and
 * surrounding spaces. Only this hash is stored, never the email.
 */
export function signInKey(realm: string, email: string): string {
  return createHash('sha256')
    .update(`${realm}\n${normalizeEmail(email)}`, 'utf8')
    .digest('hex');
}

/** An attempt under way (its failure is on record until `succeeded`), or the refusal. */
export type SignInAttempt =
  { kind: 'go'; key: string; clientAddress: string; failureId: string; slowMs: number } | { kind: 'locked'; retryAfterSeconds: number };

/** The pair's row, made on first use and locked: every attempt of one (email, address) passes here one at a time. */
const LOCK_PAIR = `INSERT INTO sign_in_lockouts (email_key, client_address, updated_at) VALUES ($1, $2, $3)
  ON CONFLICT (email_key, client_address) DO UPDATE SET updated_at = EXCLUDED.updated_at
  RETURNING locked_until`;

/**
 * Failed sign-ins and the lockouts they lead to, per (email, client address) (CONTRACT §11; tables
 * `sign_in_lockouts`, `sign_in_failures`; the rules in sign-in-lockout.ts). `begin` takes the count and
 * records the attempt as a failure in its own committed transaction BEFORE the password is checked,
 * serialized by the pair's row lock, so 100 concurrent guesses get 5 checks at most; `succeeded` takes
 * the record back, `failed` locks the pair at the 5th.
 */
@Injectable()
export class SignInLockouts {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  async begin(key: string, address: string): Promise<SignInAttempt> {
    // an IPv6 client is counted per /64: it has 2^64 addresses to rotate through
    const clientAddress = clientAddressGroup(address);
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
    return this.transactions.run(async (tx) => {
      const m = managerOf(tx);
      const [pair]: Array<{ locked_until: Date | string | null }> = await m.query(LOCK_PAIR, [key, clientAddress, now]);
      const lockedUntil = date(pair.locked_until);
      if (lockedUntil !== null && lockedUntil.getTime() > now.getTime()) {
        return { kind: 'locked' as const, retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000)) };
      }
      const [count]: Array<{ here: string | number; everywhere: string | number }> = await m.query(
        `SELECT count(*) FILTER (WHERE client_address = $2) AS here, count(*) AS everywhere
           FROM sign_in_failures WHERE email_key = $1 AND failed_at > $3`,
        [key, clientAddress, windowStart],
      );
      // attempts still being checked count too: 5 of them in flight refuse the 6th until they are decided
      if (Number(count.here) >= SIGN_IN_MAX_FAILURES) return { kind: 'locked' as const, retryAfterSeconds: SIGN_IN_LOCKOUT_MS / 1000 };
      const [row]: Array<{ id: string | number }> = await m.query(
        `INSERT INTO sign_in_failures (email_key, client_address, failed_at) VALUES ($1, $2, $3) RETURNING id`,
        [key, clientAddress, now],
      );
      return { kind: 'go' as const, key, clientAddress, failureId: String(row.id), slowMs: slowdownMs(Number(count.everywhere)) };
    });
  }

  /**
   * One sign-in under the lockout (CONTRACT §11): counted and recorded as a failure before `check` (the
   * password and the code) runs, slowed first when failures for the email pile up from many addresses,
   * and taken back unless `check` answers `{ kind: 'failed' }` — a fault (503) is no failure of the
   * person's. `onLocked` hears when this failure locked the (email, address) pair.
   */
  async attempt<R extends { kind: string }>(
    key: string,
    clientAddress: string,
    check: () => Promise<R>,
    onLocked: () => void,
  ): Promise<R | Extract<SignInAttempt, { kind: 'locked' }>> {
    const attempt = await this.begin(key, clientAddress);
    if (attempt.kind === 'locked') return attempt;
    if (attempt.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, attempt.slowMs));
    let result: R | null = null;
    try {
      result = await check();
    } finally {
      if (result === null || result.kind !== 'failed') await this.succeeded(attempt);
    }
    if (result.kind === 'failed' && (await this.failed(attempt)) !== null) onLocked();
    return result;
  }

  /** The attempt was not a failure (signed in, or refused for another reason): its record goes. */
  async succeeded(attempt: Extract<SignInAttempt, { kind: 'go' }>): Promise<void> {
    await this.transactions.run((tx) => managerOf(tx).query(`DELETE FROM sign_in_failures WHERE id = $1`, [attempt.failureId]));
  }

  /** The attempt failed (its record stays); returns when the pair is now locked until, or null. */
  async failed(attempt: Extract<SignInAttempt, { kind: 'go' }>): Promise<Date | null> {
    const now = this.clock.now();
    return this.transactions.run(async (tx) => {
      const m = managerOf(tx);
      await m.query(LOCK_PAIR, [attempt.key, attempt.clientAddress, now]);
      const [count]: Array<{ n: string | number }> = await m.query(
        `SELECT count(*) AS n FROM sign_in_failures WHERE email_key = $1 AND client_address = $2 AND failed_at > $3`,
        [attempt.key, attempt.clientAddress, new Date(now.getTime() - SIGN_IN_WINDOW_MS)],
      );
      if (Number(count.n) < SIGN_IN_MAX_FAILURES) return null;
      const until = new Date(now.getTime() + SIGN_IN_LOCKOUT_MS);
      // the lockout starts a new count without deleting anything: it lasts as long as the window, so
      // the failures before it are out of the window when it ends (they still count towards slowing)
      await m.query(`UPDATE sign_in_lockouts SET locked_until = $3 WHERE email_key = $1 AND client_address = $2`, [attempt.key, attempt.clientAddress, until]);
      return until;
    });
  }
}
