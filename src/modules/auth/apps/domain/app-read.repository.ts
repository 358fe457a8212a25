import type { Transaction } from '../../../../shared/domain/transaction';

/** What other modules read of an app: its name and the revision tokens are issued under now. */
export interface AppSummary {
  id: string;
  name: string;
  /** null while no revision is approved */
  approvedRevisionId: string | null;
  /**
   * CONTRACT §21: who publishes the app, as its APPROVED revision states it (what an owner is shown);
   * all null while no revision is approved
   */
  publisher: AppPublisher;
  /** CONTRACT §21: whether the operator verified the approved revision's publisher */
  publisherVerified: boolean;
  /** the developer's draft (the app page), which a revision copies when it is made */
  draftPublisher: AppPublisher;
}

/** CONTRACT §18, §21: the publisher's name, website, privacy policy (https addresses) and CVR number, each null when not given. */
export interface AppPublisher {
  name: string | null;
  website: string | null;
  privacyPolicy: string | null;
  cvr: string | null;
}

/** A publisher nobody stated. */
export const NO_PUBLISHER: AppPublisher = Object.freeze({ name: null, website: null, privacyPolicy: null, cvr: null });

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
