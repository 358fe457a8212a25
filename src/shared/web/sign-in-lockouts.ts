import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Transaction } from '../domain/transaction';
import { managerOf } from '../database/transactions';
import { lockoutAfterFailure, normalizeEmail, SIGN_IN_WINDOW_MS } from './sign-in-lockout';

const date = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/**
 * The key a sign-in's failures are counted under: who signs in where (`realm`: `owner` on the consent
 * pages, `developer` on the developer console) and the email, compared without regard to case and
 * surrounding spaces. Only this hash is stored, never the email.
 */
export function signInKey(realm: string, email: string): string {
  return createHash('sha256').update(`${realm}\n${normalizeEmail(email)}`, 'utf8').digest('hex');
}

/** Failed sign-ins and the lockouts they lead to (tables `sign_in_lockouts`, `sign_in_failures`; rules in sign-in-lockout.ts). */
@Injectable()
export class SignInLockouts {
  async lockedUntil(tx: Transaction, key: string): Promise<Date | null> {
    const rows: Array<{ locked_until: Date | string | null }> = await managerOf(tx).query(`SELECT locked_until FROM sign_in_lockouts WHERE email_key = $1`, [key]);
    return rows[0] ? date(rows[0].locked_until) : null;
  }

  /** Records a failed sign-in; returns when the key is now locked until, or null. */
  async recordFailure(tx: Transaction, key: string, now: Date): Promise<Date | null> {
    const m = managerOf(tx);
    // the key's row serializes its failures, so two instances cannot both count to four
    await m.query(`INSERT INTO sign_in_lockouts (email_key) VALUES ($1) ON CONFLICT DO NOTHING`, [key]);
    await m.query(`SELECT 1 FROM sign_in_lockouts WHERE email_key = $1 FOR UPDATE`, [key]);
    await m.query(`DELETE FROM sign_in_failures WHERE email_key = $1 AND failed_at <= $2`, [key, new Date(now.getTime() - SIGN_IN_WINDOW_MS)]);
    await m.query(`INSERT INTO sign_in_failures (email_key, failed_at) VALUES ($1, $2)`, [key, now]);
    const rows: Array<{ failed_at: Date | string }> = await m.query(`SELECT failed_at FROM sign_in_failures WHERE email_key = $1`, [key]);
    const until = lockoutAfterFailure(rows.map((r) => date(r.failed_at) as Date), now);
    if (until) {
      await m.query(`UPDATE sign_in_lockouts SET locked_until = $2 WHERE email_key = $1`, [key, until]);
      // the lockout starts a new count: failures before it do not count again afterwards
      await m.query(`DELETE FROM sign_in_failures WHERE email_key = $1`, [key]);
    }
    return until;
  }
}
