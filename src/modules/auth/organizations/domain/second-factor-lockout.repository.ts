import type { Transaction } from '../../../../shared/domain/transaction';

/** CONTRACT §8: 5 wrong codes of one owner within 15 minutes refuse that owner's codes for 15 minutes. */
export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_DURATION_MS = 15 * 60_000;

/** Port: wrong one-time codes per owner, and the lockouts they cause. */
export abstract class SecondFactorLockoutRepository {
  /** When the owner's lockout ends, if one is in force at `now`; read inside the caller's transaction. */
  abstract lockedUntil(tx: Transaction, userId: string, now: Date): Promise<Date | null>;
  /**
   * Counts one wrong code of the owner at `now` so that it stays counted although the transaction
   * `tx` of the failing call rolls back, and starts a lockout when it is the 5th within the window.
   * `onLockout` is told when one starts.
   */
  abstract recordFailure(tx: Transaction, userId: string, now: Date, onLockout: (until: Date) => void): Promise<void>;
}
