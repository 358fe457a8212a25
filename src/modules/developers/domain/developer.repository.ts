import type { Transaction } from '../../../shared/domain/transaction';

/** A developer as sign-in needs it: the TOTP secret opened, the last accepted step (CONTRACT §8's one use per code). */
export interface DeveloperCredentials {
  id: string;
  email: string;
  passwordHash: string;
  totpSecret: string;
  lastAcceptedStep: number | null;
}

/** An app a developer made: the production app and the sandbox project made with it (null while being made). */
export interface DeveloperApp {
  id: string;
  developerId: string;
  appId: string;
  sandboxProjectId: string;
  sandboxOrganizationId: string;
  sandboxAppId: string;
}

/**
 * One partner call of an app, as the request log keeps it (CONTRACT §15): never a body, a token, a header
 * value other than the Idempotency-Key's first 8 characters, or an account name.
 */
export interface LoggedCall {
  appId: string;
  environment: string;
  at: Date;
  method: string;
  /** the path with its query string, ids as sent */
  path: string;
  status: number;
  /** a problem answer's `code`, else null */
  code: string | null;
  /** a problem answer's `errors` pointers */
  pointers: string[];
  durationMs: number;
  requestId: string;
  clientAddress: string;
  idempotencyKeyPrefix: string | null;
}

/**
 * A batch of logged calls by column (what the request log's queue hands to its insert, one array per field,
 * the i-th entry of each being one call): `at` in ms since the epoch, `pointers` joined by a newline.
 */
export interface LoggedCallColumns {
  appId: string[];
  environment: string[];
  at: number[];
  method: string[];
  path: string[];
  status: number[];
  code: Array<string | null>;
  pointers: string[];
  durationMs: number[];
  requestId: string[];
  clientAddress: string[];
  idempotencyKeyPrefix: Array<string | null>;
}

/** A sign-up waiting for its email to be proven (issue 35): one per confirmation email sent. */
export interface PendingSignup {
  id: string;
  email: string;
}

/** How many of something within the hour, and when the oldest of them was (null when none). */
export interface UsesInWindow {
  n: number;
  oldest: Date | null;
}

/** What a developer does that has an hourly quota (DEVELOPER_QUOTAS). */
export type QuotaKind = 'sandbox_token' | 'resend';

/** The request log's filters (CONTRACT §15): Status, Path contains, Request id; Older pages by `before` (an entry's id). */
export interface RequestLogFilter {
  environment?: 'sandbox' | 'production';
  status?: '2xx' | '4xx' | '5xx';
  pathContains?: string;
  requestId?: string;
  before?: string;
}

/**
 * A page of the request log. Path contains has no index (a substring of any text): its page examines at most
 * REQUEST_LOG_SCAN calls, newest first, so that it answers within CONTRACT §20's 500 ms however large the log;
 * when it stopped there, `scannedTo` is the id of the last call it examined (Older continues below it).
 */
export interface RequestLogPage {
  calls: Array<LoggedCall & { id: string }>;
  scannedTo: string | null;
}

/** How many calls a page filtered by Path contains examines at most: 100-150 ms of PostgreSQL with 2 M calls in the log (bench/request-log-filters.sql). */
export const REQUEST_LOG_SCAN = 50_000;

/**
 * Port: the developers module's tables (`developers`, `developer_apps`, `request_log`,
 * `developer_signups`, `developer_quota_events`).
 */
export abstract class DeveloperRepository {
  /** Creates the developer unless the email has one (compared without case); false when it has. `at` is its first sign-in. */
  abstract create(
    tx: Transaction,
    d: { id: string; email: string; passwordHash: string; totpSecret: string; lastAcceptedStep: number | null; at: Date },
  ): Promise<boolean>;
  /** Records a sign-in at `at` (the purge of developers gone 90 days reads it). */
  abstract signedIn(tx: Transaction, id: string, at: Date): Promise<void>;
  /** Locks the developer's row (quotas of one developer are counted one request at a time); false when there is none. */
  abstract lock(tx: Transaction, id: string): Promise<boolean>;
  /** The developer's email and demo company (CONTRACT §15; null before it is made), the row locked when `lock`; null for no such developer. */
  abstract demoOf(tx: Transaction, id: string, options: { lock: boolean }): Promise<{ email: string; organizationId: string | null } | null>;
  abstract setDemo(tx: Transaction, id: string, organizationId: string): Promise<void>;
  /** CONTRACT §20: the attachment bytes each organization holds as SANDBOX_STORAGE_MAX_BYTES counts them, in the order given. */
  abstract attachmentStorage(tx: Transaction, organizationIds: string[]): Promise<number[]>;
  /** The developer's uses of `kind` since `since`. */
  abstract quotaUses(tx: Transaction, developerId: string, kind: QuotaKind, since: Date): Promise<UsesInWindow>;
  abstract recordQuotaUse(tx: Transaction, developerId: string, kind: QuotaKind, at: Date): Promise<void>;

  /**
   * Serializes the sign-up emails to `email` and from `client` (transaction-scoped locks, in that
   * order), so that counting and recording them is exact across instances.
   */
  abstract lockSignupSenders(tx: Transaction, email: string, client: string): Promise<void>;
  /** Sign-up emails sent since `since` to `email` (without case) and from `client`. */
  abstract signupsSent(tx: Transaction, email: string, client: string, since: Date): Promise<{ email: UsesInWindow; client: UsesInWindow }>;
  /** Records one sign-up email: with a token (its hash) for a new email, without for a notice. */
  abstract recordSignup(tx: Transaction, s: { id: string; email: string; client: string; tokenHash: string | null; at: Date; expiresAt: Date }): Promise<void>;
  /** The sign-up whose link carries this token (hash), while it works (unused, unexpired), locked FOR UPDATE when `lock`. */
  abstract openSignup(tx: Transaction, by: { tokenHash: string } | { id: string }, now: Date, lock: boolean): Promise<PendingSignup | null>;
  /** Every link sent to `email` stops working (the account is made); the rows stay for the hourly counts. */
  abstract closeSignups(tx: Transaction, email: string): Promise<void>;
  abstract findByEmail(tx: Transaction, email: string): Promise<DeveloperCredentials | null>;
  /** The developer's row, locked: sign-ins of one developer take turns, so a code is used once. */
  abstract findForUpdate(tx: Transaction, id: string): Promise<DeveloperCredentials | null>;
  /** Records the accepted step if it is later than the last one; false when it is not (a reused code). */
  abstract consumeStep(tx: Transaction, id: string, step: number): Promise<boolean>;

  /** Reserves one of the developer's `max` app places (developer row locked); false when all are taken. */
  abstract reserveApp(tx: Transaction, developerId: string, reservationId: string, max: number): Promise<boolean>;
  abstract completeApp(tx: Transaction, reservationId: string, app: Omit<DeveloperApp, 'id' | 'developerId'>): Promise<void>;
  abstract dropReservation(tx: Transaction, reservationId: string): Promise<void>;
  /** The developer's apps, oldest first. */
  abstract appsOf(tx: Transaction, developerId: string): Promise<DeveloperApp[]>;
  /** The app if this developer made it, else null (another developer's app is as unknown as no app). */
  abstract appOf(tx: Transaction, developerId: string, appId: string): Promise<DeveloperApp | null>;

  /** Stores logged calls (one statement for the batch). */
  abstract recordCalls(tx: Transaction, calls: LoggedCallColumns): Promise<void>;
  /**
   * The request log of these apps (an app's production and sandbox ids), newest first, at most `limit`, each
   * with its id (the Older cursor); a Path contains page examines at most `scan` calls (RequestLogPage).
   */
  abstract requestLog(tx: Transaction, appIds: string[], filter: RequestLogFilter, limit: number, scan?: number): Promise<RequestLogPage>;
  /** Deletes up to `size` entries older than `before`, oldest first; returns how many went. */
  abstract purgeRequestLog(tx: Transaction, before: Date, size: number): Promise<number>;
}
