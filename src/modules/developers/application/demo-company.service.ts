import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Transactions } from '../../../shared/database/transactions';
import type { Transaction } from '../../../shared/domain/transaction';
import { OrganizationService } from '../../auth/organizations';
import { SANDBOX_ACCOUNTS, SANDBOX_TAX_CODES } from '../../auth/sandbox';
import { DeveloperRepository } from '../domain/developer.repository';

/** CONTRACT §15: the demo company's name. */
export const demoCompanyName = (email: string): string => `Demo ApS – ${email}`;

/**
 * CONTRACT §15, "a demo company, to try production alone": each developer has a production organization
 * marked `demo`, named "Demo ApS – <email>", with the sample chart of §8 (the sandbox's), whose only
 * owner is the developer (organizations' demo identity: the developer's email, password and
 * authenticator). Made with the account; an account made before this existed gets it on its first app
 * page. Which apps it may be granted to is the grants module's rule (the developer's own, approved or not).
 */
@Injectable()
export class DemoCompanyService {
  constructor(
    private readonly repo: DeveloperRepository,
    private readonly organizations: OrganizationService,
    private readonly transactions: Transactions,
  ) {}

  /** The developer's demo company, made now if it is not yet (under the developer's row lock: one per developer). */
  async ensureWithin(tx: Transaction, developerId: string): Promise<{ id: string; name: string } | null> {
    const developer = await this.repo.demoOf(tx, developerId, { lock: true });
    if (!developer) return null;
    const name = demoCompanyName(developer.email);
    if (developer.organizationId !== null) return { id: developer.organizationId, name };
    const organizationId = randomUUID();
    await this.organizations.createDemoWithin(tx, {
      organizationId,
      name,
      developerId,
      email: developer.email,
      accounts: SANDBOX_ACCOUNTS.map((a) => ({ id: randomUUID(), ...a })),
      taxCodes: SANDBOX_TAX_CODES.map((t) => ({ id: randomUUID(), ...t })),
    });
    await this.repo.setDemo(tx, developerId, organizationId);
    return { id: organizationId, name };
  }

  /** As ensureWithin, in a transaction of its own; a page view that finds it made takes no lock. */
  async ensure(developerId: string): Promise<{ id: string; name: string } | null> {
    const found = await this.transactions.run((m) => this.repo.demoOf(m, developerId, { lock: false }));
    if (found?.organizationId) return { id: found.organizationId, name: demoCompanyName(found.email) };
    return this.transactions.run((m) => this.ensureWithin(m, developerId));
  }
}
