import type { Transaction } from '../../../../shared/domain/transaction';
import type { Scope } from '../../../../shared/domain/scopes';

export interface NewGrant {
  id: string;
  organizationId: string;
  appId: string;
  ownerUserId: string;
  accountIds: string[];
  scopes: Scope[];
  grantedAt: Date;
  expiresAt: Date;
}

export interface GrantRecord {
  id: string;
  organizationId: string;
  appId: string;
}

/** Port: customer grants and the production access tokens issued under them. */
export abstract class GrantRepository {
  /** Marks the grant in force for (organization, app), if any, as superseded at `at`. */
  abstract supersedeCurrent(tx: Transaction, organizationId: string, appId: string, at: Date): Promise<void>;
  /** Stores a grant and its selected accounts; it becomes the one in force for (organization, app). */
  abstract insert(tx: Transaction, grant: NewGrant): Promise<void>;
  abstract find(tx: Transaction, grantId: string): Promise<GrantRecord | null>;
  /** Revokes the grant (keeping the first revocation time). False when there is no such grant. */
  abstract revoke(tx: Transaction, grantId: string, at: Date): Promise<boolean>;
  /** Stores a production token's hash, bound to the grant and to the app revision approved now. */
  abstract insertToken(
    tx: Transaction,
    token: { tokenHash: string; organizationId: string; appId: string; grantId: string; appRevisionId: string },
  ): Promise<void>;
}
