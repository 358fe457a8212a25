import type { EntityManager } from 'typeorm';

/** Port: posting mandates, one in force per (organization, app). */
export abstract class MandateRepository {
  /** Revokes the mandate in force for (organization, app), if any. */
  abstract revokeActive(m: EntityManager, organizationId: string, appId: string, at: Date): Promise<void>;
  abstract insert(m: EntityManager, mandate: { id: string; organizationId: string; appId: string; ownerUserId: string }): Promise<void>;
  /** Revokes the mandate (keeping the first revocation time). False when there is no such mandate. */
  abstract revoke(m: EntityManager, mandateId: string, at: Date): Promise<boolean>;
}
