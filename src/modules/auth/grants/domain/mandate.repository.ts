import type { Transaction } from '../../../../shared/domain/transaction';

/** Port: posting mandates, one in force per (organization, app). */
export abstract class MandateRepository {
  /** Revokes the mandate in force for (organization, app), if any. */
  abstract revokeActive(tx: Transaction, organizationId: string, appId: string, at: Date): Promise<void>;
  abstract insert(tx: Transaction, mandate: { id: string; organizationId: string; appId: string; ownerUserId: string }): Promise<void>;
  /** Revokes the mandate (keeping the first revocation time). False when there is no such mandate. */
  abstract revoke(tx: Transaction, mandateId: string, at: Date): Promise<boolean>;
}
