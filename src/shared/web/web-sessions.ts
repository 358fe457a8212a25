import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { SecretBox } from '../crypto/secret-box';
import { Clock } from '../domain/clock';
import type { Transaction } from '../domain/transaction';
import { managerOf, Transactions } from '../database/transactions';

const confirmationHash = (token: string) => createHash('sha256').update(token).digest('hex');

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

/**
 * What an action leaves for the next page (CONTRACT §18): a status message (a catalogue key and its
 * parameters) and a secret shown once (a catalogue key naming it, and its value).
 */
export interface Flash {
  status?: { key: string; params?: Record<string, string | number> };
  secret?: { labelKey: string; value: string };
  /** the id of the page's section it concerns (the 303's fragment) */
  section?: string;
  /** what a refused form's fields held (CONTRACT §21: kept, except passwords and codes, which never go here) */
  fields?: Record<string, string>;
}
/**
 * What a refused sign-in leaves for its form (CONTRACT §21): the reason and the email typed (never the
 * password or the code). Owners and developers share it.
 */
export function refusedSignIn(result: { kind: 'failed' } | { kind: 'locked' }, emailRaw: unknown, failedKey = 'web.signInFailed'): Flash {
  const email = typeof emailRaw === 'string' ? emailRaw.slice(0, 254) : '';
  return { status: { key: result.kind === 'locked' ? 'web.signInLocked' : failedKey }, fields: { email } };
}

const FLASH_CONTEXT = 'web_sessions.flash';

/** A session before sign-in lives in its cookie, sealed with SECRETS_KEY (every instance has the same keys). */
const PENDING_PREFIX = 'p.';
const PENDING_CONTEXT = 'web_sessions.pending';
/** Browsers keep cookies up to 4096 bytes (name and attributes included): a larger pending session gets a row. */
const PENDING_MAX = 3_600;

interface PendingCookie {
  id: string;
  csrf: string;
  purpose: string;
  data: unknown;
  exp: number;
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

/**
 * Sessions of the server-rendered pages. A signed-in session is a row (so every instance shares it and
 * sign-out or a password change can end it); a session before sign-in is only its cookie, sealed
 * (AES-GCM under SECRETS_KEY) with its id, CSRF secret, purpose, data and expiry — CONTRACT §12: no
 * session row is written before a form is posted, so cookieless page views write nothing. Sign-in
 * writes the row, under a new id.
 */
@Injectable()
export class WebSessions {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
  ) {}

  /** A new session before sign-in; the returned cookie value is the only place its id exists in clear. */
  async start<D extends object>(purpose: string, data: D, lifetimeMs: number): Promise<{ cookie: string; session: WebSession<D> }> {
    const now = this.clock.now();
    const id = newSessionId();
    const session: WebSession<D> = {
      idHash: sessionIdHash(id),
      csrfSecret: newCsrfSecret(),
      purpose,
      subjectId: null,
      data,
      expiresAt: new Date(now.getTime() + lifetimeMs),
    };
    const pending: PendingCookie = { id, csrf: session.csrfSecret, purpose, data, exp: session.expiresAt.getTime() };
    const cookie = PENDING_PREFIX + this.secrets.seal(JSON.stringify(pending), PENDING_CONTEXT);
    if (encodeURIComponent(cookie).length <= PENDING_MAX) return { cookie, session };
    // an authorization request too large for a cookie (a state of kilobytes): a row, as a signed-in session
    await this.transactions.run((tx) => this.insert(tx, session, now));
    return { cookie: id, session };
  }

  /** The session of the cookie, if it exists and has not expired. */
  async load<D extends object>(cookie: unknown): Promise<WebSession<D> | null> {
    if (typeof cookie === 'string' && cookie.startsWith(PENDING_PREFIX)) return this.pending<D>(cookie);
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
   * before sign-in is worth nothing after it), in the caller's transaction: the session's row, if it
   * had one, goes, and the signed-in session's row is written.
   */
  async signIn<D extends object>(tx: Transaction, session: WebSession<D>, subjectId: string, data: D): Promise<{ cookie: string; session: WebSession<D> }> {
    const cookie = newSessionId();
    const next: WebSession<D> = { ...session, idHash: sessionIdHash(cookie), csrfSecret: newCsrfSecret(), subjectId, data };
    await managerOf(tx).query(`DELETE FROM web_sessions WHERE id_hash = $1`, [session.idHash]);
    await this.insert(tx, next, this.clock.now());
    return { cookie, session: next };
  }

  /**
   * A posted form gives a session before sign-in data to keep (a sign-up in progress): from now on it is
   * a row, under a new id (its CSRF secret stays, so the page's form token stays good).
   */
  async persist<D extends object>(tx: Transaction, session: WebSession<D>, data: D): Promise<{ cookie: string; session: WebSession<D> }> {
    const cookie = newSessionId();
    const next: WebSession<D> = { ...session, idHash: sessionIdHash(cookie), data };
    await managerOf(tx).query(`DELETE FROM web_sessions WHERE id_hash = $1`, [session.idHash]);
    await this.insert(tx, next, this.clock.now());
    return { cookie, session: next };
  }

  private async insert(tx: Transaction, s: WebSession<object>, now: Date): Promise<void> {
    await managerOf(tx).query(
      `INSERT INTO web_sessions (id_hash, csrf_secret, purpose, subject_id, data, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
      [s.idHash, s.csrfSecret, s.purpose, s.subjectId, JSON.stringify(s.data), now, s.expiresAt],
    );
  }

  /** A pending session from its sealed cookie; null when it does not open (tampered, another key) or has expired. */
  private pending<D extends object>(cookie: string): WebSession<D> | null {
    if (cookie.length > 8_192) return null;
    let p: PendingCookie;
    try {
      p = JSON.parse(this.secrets.open(cookie.slice(PENDING_PREFIX.length), PENDING_CONTEXT)) as PendingCookie;
    } catch {
      return null;
    }
    if (typeof p.id !== 'string' || typeof p.exp !== 'number' || p.exp <= this.clock.now().getTime()) return null;
    return { idHash: sessionIdHash(p.id), csrfSecret: p.csrf, purpose: p.purpose, subjectId: null, data: p.data as D, expiresAt: new Date(p.exp) };
  }

  async setData(tx: Transaction, idHash: string, data: object): Promise<void> {
    await managerOf(tx).query(`UPDATE web_sessions SET data = $2::jsonb WHERE id_hash = $1`, [idHash, JSON.stringify(data)]);
  }

  /** Ends every signed-in session of `subjectId` for these purposes (a password changed: CONTRACT §10). */
  async endAllOf(tx: Transaction, subjectId: string, purposes: readonly string[]): Promise<void> {
    await managerOf(tx).query(`DELETE FROM web_sessions WHERE subject_id = $1 AND purpose = ANY($2::text[])`, [subjectId, [...purposes]]);
  }

  /**
   * CONTRACT §18 post-redirect-get: what one action leaves for the page its 303 leads to (a status
   * message, a secret issued once), kept in the signed-in session's row, sealed with SECRETS_KEY (a
   * secret never rests in clear, never in a URL), in the caller's transaction so it commits with the
   * action. `takeFlash` hands it out once.
   */
  async setFlash(tx: Transaction, idHash: string, flash: Flash): Promise<void> {
    const sealed = this.secrets.seal(JSON.stringify(flash), FLASH_CONTEXT);
    await managerOf(tx).query(`UPDATE web_sessions SET data = jsonb_set(data, '{_flash}', to_jsonb($2::text)) WHERE id_hash = $1`, [idHash, sealed]);
  }

  /**
   * CONTRACT §21 "a reload repeats nothing": a refused form answers 303 back to itself, and what it says
   * (and what was typed) waits here for that GET. A session before sign-in becomes a row now (a form was
   * posted: CONTRACT §12 allows it), under a new id: the returned cookie, which the answer must set;
   * null when the session already was a row.
   */
  async leaveFlash(session: WebSession<object>, flash: Flash): Promise<string | null> {
    return this.transactions.run(async (tx) => {
      const rows: unknown[] = await managerOf(tx).query(`SELECT 1 FROM web_sessions WHERE id_hash = $1 FOR UPDATE`, [session.idHash]);
      let cookie: string | null = null;
      let idHash = session.idHash;
      if (rows.length === 0) {
        const kept = await this.persist(tx, session, session.data);
        cookie = kept.cookie;
        idHash = kept.session.idHash;
      }
      await this.setFlash(tx, idHash, flash);
      return cookie;
    });
  }

  /** The flash of the session, once: read and removed in one statement (two tabs reloading at once: one gets it). */
  async takeFlash(idHash: string): Promise<Flash | null> {
    const rows: Array<{ flash: string | null }> = await this.transactions.run((tx) =>
      managerOf(tx).query(
        // a SELECT at the top: a bare UPDATE … RETURNING is answered as [rows, count]
        `WITH taken AS (
           UPDATE web_sessions s SET data = s.data - '_flash'
             FROM (SELECT id_hash, data->>'_flash' AS flash FROM web_sessions WHERE id_hash = $1 AND data ? '_flash' FOR UPDATE) o
            WHERE s.id_hash = o.id_hash RETURNING o.flash)
         SELECT flash FROM taken`,
        [idHash],
      ),
    );
    const sealed = rows[0]?.flash;
    if (typeof sealed !== 'string') return null;
    try {
      return JSON.parse(this.secrets.open(sealed, FLASH_CONTEXT)) as Flash;
    } catch {
      return null;
    }
  }

  /**
   * CONTRACT §18 "a replayed confirmation form: nothing happens twice": a confirmation page's one-time
   * token, kept (hashed) in the session row; a newer confirmation page replaces it.
   */
  async issueConfirmation(idHash: string): Promise<string> {
    const token = randomBytes(18).toString('base64url');
    await this.transactions.run((tx) =>
      managerOf(tx).query(`UPDATE web_sessions SET data = jsonb_set(data, '{_confirm}', to_jsonb($2::text)) WHERE id_hash = $1`, [
        idHash,
        confirmationHash(token),
      ]),
    );
    return token;
  }

  /** True once for the token the session's confirmation page carried: taken in one statement (of two posts at once, one gets it). */
  async takeConfirmation(idHash: string, token: unknown): Promise<boolean> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 64) return false;
    const rows: unknown[] = await this.transactions.run((tx) =>
      managerOf(tx).query(
        `WITH taken AS (UPDATE web_sessions SET data = data - '_confirm' WHERE id_hash = $1 AND data->>'_confirm' = $2 RETURNING 1 AS one)
         SELECT one FROM taken`,
        [idHash, confirmationHash(token)],
      ),
    );
    return rows.length === 1;
  }

  async end(tx: Transaction, idHash: string): Promise<void> {
    await managerOf(tx).query(`DELETE FROM web_sessions WHERE id_hash = $1`, [idHash]);
  }
}
