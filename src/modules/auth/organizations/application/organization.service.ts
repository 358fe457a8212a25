import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Transactions } from '../../../../shared/database/transactions';
import type { Transaction } from '../../../../shared/domain/transaction';
import { NotFoundError, ResourceConflictError } from '../../../../shared/domain/errors';
import { OrganizationRepository } from '../domain/organization.repository';
import { OwnerRepository } from '../domain/owner.repository';
import { hashPassword } from '../domain/password';
import { generateTotpSecret } from '../domain/totp';

/** Console: production organizations, their chart of accounts, tax codes and owners (CONTRACT §10). */
@Injectable()
export class OrganizationService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly owners: OwnerRepository,
    private readonly transactions: Transactions,
  ) {}

  /** How many organizations there are (the first start provisions a sandbox project when none). */
  count(): Promise<number> {
    return this.organizations.count();
  }

  async createOrganization(name: string): Promise<{ id: string }> {
    const id = randomUUID();
    await this.transactions.run((m) => this.organizations.create(m, { id, name, environment: 'production' }));
    return { id };
  }

  /** 409 resource_conflict for a number the organization already has (CONTRACT §10). */
  async createAccount(organizationId: string, number: string, name: string): Promise<{ id: string }> {
    const org = organizationId;
    const id = randomUUID();
    await this.transactions.run(async (m) => {
      if (!(await this.organizations.lock(m, org))) throw new NotFoundError('organization');
      if (!(await this.organizations.createAccount(m, org, { id, number, name }))) {
        throw new ResourceConflictError('The organization already has an account with this number');
      }
    });
    return { id };
  }

  /** Idempotent: an inactive account stays inactive. */
  async deactivateAccount(accountId: string): Promise<{ id: string; active: false }> {
    const id = await this.transactions.run((m) => this.organizations.deactivateAccount(m, accountId));
    if (!id) throw new NotFoundError('account');
    return { id, active: false };
  }

  async createTaxCode(organizationId: string, code: string, rateBasisPoints: number): Promise<{ id: string }> {
    const org = organizationId;
    const id = randomUUID();
    await this.transactions.run(async (m) => {
      if (!(await this.organizations.lock(m, org))) throw new NotFoundError('organization');
      if (!(await this.organizations.createTaxCode(m, org, { id, code, rateBasisPoints }))) {
        throw new ResourceConflictError('The organization already has a tax code with this code');
      }
    });
    return { id };
  }

  /**
   * Enrols a user as an owner of the organization. A new email gets a new user with a fresh TOTP
   * secret, returned this once for the owner's authenticator app, and the password (argon2id) when
   * given. An email already enrolled (any organization, compared without regard to case) is the same
   * user: it becomes an owner here too, its secret stays, and `totp_secret` is null; a password given
   * for it is set when it has none, and is 409 `resource_conflict` when it has one — never silently
   * dropped (CONTRACT §10; replacing one is `setPassword`'s job).
   */
  async enrolOwner(organizationId: string, email: string, password: string | null = null): Promise<{ user_id: string; totp_secret: string | null }> {
    const org = organizationId;
    // hashed before the transaction: argon2 takes tens of milliseconds and must not hold the lock
    const passwordHash = password === null ? null : await hashPassword(password);
    return this.transactions.run(async (m) => {
      if (!(await this.organizations.lock(m, org))) throw new NotFoundError('organization');
      const existing = await this.owners.findUserByEmailForEnrolment(m, email);
      if (existing) {
        if (passwordHash !== null) {
          if (existing.hasPassword) {
            throw new ResourceConflictError('This user already has a password; POST /console/v1/users/{user_id}/password replaces it');
          }
          await this.owners.setPasswordHash(m, existing.userId, passwordHash);
        }
        await this.owners.addOwner(m, org, existing.userId);
        return { user_id: existing.userId, totp_secret: null };
      }
      const userId = randomUUID();
      const totpSecret = generateTotpSecret();
      await this.owners.enrol(m, org, { userId, email, totpSecret, passwordHash });
      return { user_id: userId, totp_secret: totpSecret };
    });
  }

  /**
   * A developer's demo company (CONTRACT §15), inside the caller's transaction: a production
   * organization marked `demo`, with the given chart, whose only owner is a user standing for the
   * developer (the developer's email; password and authenticator read from the developer's account).
   */
  async createDemoWithin(
    tx: Transaction,
    demo: {
      organizationId: string;
      name: string;
      developerId: string;
      email: string;
      accounts: ReadonlyArray<{ id: string; number: string; name: string }>;
      taxCodes: ReadonlyArray<{ id: string; code: string; rateBasisPoints: number }>;
    },
  ): Promise<void> {
    await this.organizations.create(tx, { id: demo.organizationId, name: demo.name, environment: 'production', demo: true });
    await this.organizations.createChart(tx, demo.organizationId, demo.accounts, demo.taxCodes);
    await this.owners.enrolDeveloper(tx, demo.organizationId, { userId: randomUUID(), email: demo.email, developerId: demo.developerId });
  }

  /** The argon2id hash of an owner's password, made before the transaction that stores it (tens of ms). */
  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  /**
   * Sets or replaces the user's password inside `tx`, whose caller ends what the old password opened
   * (CONTRACT §10: the owner's consent sessions). 404 for an unknown user.
   */
  async setPasswordHash(tx: Transaction, userId: string, passwordHash: string): Promise<void> {
    const set = await this.owners.setPasswordHash(tx, userId, passwordHash);
    if (!set) throw new NotFoundError('user');
    if (set === 'developer')
      throw new ResourceConflictError("This user is a developer's demo company owner: its password is the developer account's (CONTRACT §15)");
  }
}
