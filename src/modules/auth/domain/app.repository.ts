import type { EntityManager } from 'typeorm';

export interface AppRecord {
  id: string;
  /** The revision tokens are issued under now (CONTRACT §8), or null while none is approved. */
  approvedRevisionId: string | null;
}

/** Port: apps and their numbered revisions. */
export abstract class AppRepository {
  abstract create(m: EntityManager, app: { id: string; name: string }): Promise<void>;
  /** The app, optionally locking its row until the transaction ends; null when there is none. */
  abstract find(m: EntityManager, appId: string, options?: { lock?: boolean }): Promise<AppRecord | null>;
  /** Adds the app's next revision (1, 2, 3, …) and returns its number. The app row must be locked. */
  abstract createRevision(m: EntityManager, appId: string, revisionId: string): Promise<number>;
  /**
   * Makes the revision the app's approved one. Returns its number, or null when the revision does not
   * exist or belongs to another app.
   */
  abstract approveRevision(m: EntityManager, appId: string, revisionId: string, at: Date): Promise<number | null>;
}
