import { Injectable } from '@nestjs/common';
import { Transactions } from '../../../shared/database/transactions';
import { ConsentSessionService } from '../../auth/consent';
import { OrganizationService } from '../../auth/organizations';

/**
 * CONTRACT §10 `POST /console/v1/users/{user_id}/password`: the new password and the end of the owner's
 * consent sessions commit together, so no session signed in with the old password outlives the change.
 */
@Injectable()
export class OwnerPasswordService {
  constructor(
    private readonly organizations: OrganizationService,
    private readonly consent: ConsentSessionService,
    private readonly transactions: Transactions,
  ) {}

  async setPassword(userId: string, password: string): Promise<{ user_id: string; password_set: true }> {
    const passwordHash = await this.organizations.hashPassword(password);
    await this.transactions.run(async (tx) => {
      await this.organizations.setPasswordHash(tx, userId, passwordHash);
      await this.consent.endSessionsOf(tx, userId);
    });
    return { user_id: userId, password_set: true };
  }
}
