import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { Clock } from '../domain/clock';
import type { Transaction } from '../domain/transaction';
import { managerOf, Transactions } from '../database/transactions';

/**
 * A page session (table `web_sessions`): who signed in (`subjectId`: an owner's user id on the consent
 * pages, a developer's id on the developer console) and what the flow keeps meanwhile (`data`, the
 * module's own JSON). `purpose` tells the flows apart, so a session of one is worthless in another.
 */
export interface WebSession<Data extends object = Record<string, unknown>> {
  idHash: string;
  csrfSecret: string;
  purpose: string;
  subjectId: string | null;
  data: Data;
  expiresAt: Date;
}

/** A session id: 256 random bits, URL-safe; the cookie holds it, the database only its SHA-256. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

function newCsrfSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Session ids carry 256 random bits, so an unsalted SHA-256 is enough and keeps the look-up one indexed equality. */
export function sessionIdHash(cookie: string): string {
  return createHash('sha256').update(cookie, 'utf8').digest('hex');
}

interface SessionRow {
  id_hash: string;
  csrf_secret: string;
  purpose: string;
  subject_id: string | null;
  data: unknown;
  expires_at: Date | string;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** Sessions of the server-rendered pages, in the database so that every instance shares them. */
@Injectable()
export class WebSessions {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** A new session; the returned cookie value is the only place its id exists in clear. */
  async start<D extends object>(purpose: string, data: D, lifetimeMs: number): Promise<{ cookie: string; session: WebSession<D> }> {
    const now = this.clock.now();
    const cookie = newSessionId();
    const session: WebSession<D> = {
      idHash: sessionIdHash(cookie),
      csrfSecret: newCsrfSecret(),
      purpose,
      subjectId: null,
      data,
      expiresAt: new Date(now.getTime() + lifetimeMs),
    };
    await this.transactions.run(async (tx) => {
      const m = managerOf(tx);
      // expired sessions go whenever a new one starts (indexed; a handful at a time)
      await m.query(`DELETE FROM web_sessions WHERE expires_at < $1`, [now]);
      await m.query(
        `INSERT INTO web_sessions (id_hash, csrf_secret, purpose, subject_id, data, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
        [session.idHash, session.csrfSecret, purpose, null, JSON.stringify(data), now, session.expiresAt],
      );
    });
    return { cookie, session };
  }

  /** The session of the cookie, if it exists and has not expired. */
  async load<D extends object>(cookie: unknown): Promise<WebSession<D> | null> {
    if (typeof cookie !== 'string' || cookie.length < 20 || cookie.length > 100) return null;
    const rows: SessionRow[] = await this.transactions.run((tx) =>
      managerOf(tx).query(`SELECT * FROM web_sessions WHERE id_hash = $1 AND expires_at > $2`, [sessionIdHash(cookie), this.clock.now()]),
    );
    const r = rows[0];
    if (!r) return null;
    return {
      idHash: r.id_hash,
      csrfSecret: r.csrf_secret,
      purpose: r.purpose,
      subjectId: r.subject_id,
      data: json<D>(r.data),
      expiresAt: r.expires_at instanceof Date ? r.expires_at : new Date(r.expires_at),
    };
  }

  /**
   * Sign-in: the subject and data under a new id and CSRF secret (no session fixation: an id set
   * before sign-in is worth nothing after it), in the caller's transaction.
   */
  async signIn<D extends object>(tx: Transaction, session: WebSession<D>, subjectId: string, data: D): Promise<{ cookie: string; session: WebSession<D> }> {
    const cookie = newSessionId();
    const next: WebSession<D> = { ...session, idHash: sessionIdHash(cookie), csrfSecret: newCsrfSecret(), subjectId, data };
    await managerOf(tx).query(`UPDATE web_sessions SET id_hash = $2, csrf_secret = $3, subject_id = $4, data = $5::jsonb WHERE id_hash = $1`, [
      session.idHash,
      next.idHash,
      next.csrfSecret,
      subjectId,
      JSON.stringify(data),
    ]);
    return { cookie, session: next };
  }

  async setData(tx: Transaction, idHash: string, data: object): Promise<void> {
    await managerOf(tx).query(`UPDATE web_sessions SET data = $2::jsonb WHERE id_hash = $1`, [idHash, JSON.stringify(data)]);
  }

  async end(tx: Transaction, idHash: string): Promise<void> {
    await managerOf(tx).query(`DELETE FROM web_sessions WHERE id_hash = $1`, [idHash]);
  }
}
