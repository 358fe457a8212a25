import type { Transaction } from '../../../../shared/domain/transaction';

/** What other modules read of an app: its name and the revision tokens are issued under now. */
export interface AppSummary {
  id: string;
  name: string;
  /** null while no revision is approved */
  approvedRevisionId: string | null;
  /** CONTRACT §18: who publishes the app, as its developer states it (null where not given) */
  publisher: AppPublisher;
}

/** CONTRACT §18: the publisher's name, website and privacy policy (https addresses), each null when not given. */
export interface AppPublisher {
  name: string | null;
  website: string | null;
  privacyPolicy: string | null;
}

/**
 * Port (reads for other modules, e.g. consent): apps by id, inside the caller's transaction. Ids are
 * lower-case uuids.
 */
export abstract class AppReadRepository {
  /** The app, or null when there is none. */
  abstract app(tx: Transaction, appId: string): Promise<AppSummary | null>;
  /** The app's revisions, by number. */
  abstract revisions(tx: Transaction, appId: string): Promise<Array<{ id: string; number: number; approved: boolean }>>;
  /**
   * The names of the apps among `appIds`, ordered by name, then id (the database's order: the text
   * collation decides, so callers that sort by app name keep this order rather than sort again).
   */
  abstract names(tx: Transaction, appIds: string[]): Promise<Array<{ id: string; name: string }>>;
}
