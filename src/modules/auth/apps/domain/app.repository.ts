import type { Transaction } from '../../../../shared/domain/transaction';
import type { AppPublisher } from './app-read.repository';

export interface AppRecord {
  id: string;
  /** The revision tokens are issued under now (CONTRACT §8), or null while none is approved. */
  approvedRevisionId: string | null;
}

/** Port: apps and their numbered revisions. */
export abstract class AppRepository {
  abstract create(tx: Transaction, app: { id: string; name: string }): Promise<void>;
  /** The app, optionally locking its row until the transaction ends; null when there is none. */
  abstract find(tx: Transaction, appId: string, options?: { lock?: boolean }): Promise<AppRecord | null>;
  /**
   * Adds the app's next revision (1, 2, 3, …), carrying the app's publisher as it is now (CONTRACT §21),
   * and returns its number. The app row must be locked.
   */
  abstract createRevision(tx: Transaction, appId: string, revisionId: string): Promise<number>;
  /**
   * Makes the revision the app's approved one. Returns its number, or null when the revision does not
   * exist or belongs to another app. The operator's verification of the publisher carries over from the
   * previously approved revision only when the publisher is the same (CONTRACT §21).
   */
  abstract approveRevision(tx: Transaction, appId: string, revisionId: string, at: Date): Promise<number | null>;
  /** Revisions awaiting approval (CONTRACT §10 `GET /console/v1/revisions?pending=true`), oldest first. */
  abstract pendingRevisions(tx: Transaction): Promise<PendingRevision[]>;
  /** Sets the app's publisher draft (CONTRACT §18, §21); false when there is no such app. */
  abstract setPublisher(tx: Transaction, appId: string, publisher: AppPublisher): Promise<boolean>;
  /**
   * Marks the approved revision's publisher verified by the operator (CONTRACT §21) and returns it;
   * null when the app has no approved revision. The app row must be locked.
   */
  abstract verifyApprovedPublisher(tx: Transaction, appId: string, at: Date): Promise<AppPublisher | null>;
  /** Whether one of the app's revisions waits for review (as pendingRevisions counts them). */
  abstract hasPendingRevision(tx: Transaction, appId: string): Promise<boolean>;
}

export interface PendingRevision {
  app_id: string;
  app_name: string;
  revision_id: string;
  number: number;
  submitted_at: string;
}
