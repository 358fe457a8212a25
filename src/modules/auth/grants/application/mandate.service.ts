import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../../shared/domain/transaction';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { AppRepository } from '../../apps';
import { NotFoundError } from '../../../../shared/domain/errors';
import { MandateRepository } from '../domain/mandate.repository';
import { OrganizationRepository } from '../../organizations';
import { SecondFactorService } from '../../organizations';

export interface CreateMandateInput {
  app_id: string;
  owner_user_id: string;
  /** Anything: every fault of the code is 403 aal2_required, never 400. */
  totp_code: unknown;
}

/**
 * Console: posting mandates (seed 5.7, CONTRACT §8) — a separate owner consent (aal2) per
 * (organization, app), revocable, needed by `POST /journal` only. One is in force per (organization,
 * app): a new mandate replaces the previous one, so revoking the newest always stops final posting.
 */
@Injectable()
export class MandateService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly apps: AppRepository,
    private readonly mandates: MandateRepository,
    private readonly secondFactor: SecondFactorService,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** Same order as a grant: organization (404), body (400), `app_id` (404), the owner's code last (403). */
  async createMandate(organizationId: string, input: CreateMandateInput): Promise<{ id: string }> {
    const org = organizationId;
    const appId = input.app_id;
    const ownerUserId = input.owner_user_id;
    const now = this.clock.now();
    return this.transactions.run((m) =>
      this.mandateWithin(m, org, appId, ownerUserId, now, () => this.secondFactor.consume(m, org, ownerUserId, input.totp_code, now)),
    );
  }

  /**
   * The mandate itself, inside the caller's transaction (the console above, and the consent page of
   * CONTRACT §11 when its "Allow final posting (mandate)" box is checked); `secondFactor` runs last.
   */
  async mandateWithin(m: Transaction, org: string, appId: string, ownerUserId: string, now: Date, secondFactor: () => Promise<void>): Promise<{ id: string }> {
    if (!(await this.organizations.lock(m, org))) throw new NotFoundError('organization');
    if (!(await this.apps.find(m, appId))) throw new NotFoundError('app');
    await secondFactor();
    const id = randomUUID();
    await this.mandates.revokeActive(m, org, appId, now);
    await this.mandates.insert(m, { id, organizationId: org, appId, ownerUserId });
    return { id };
  }

  /** Idempotent; the next `POST /journal` of the app gets 403 mandate_required. */
  async revokeMandate(mandateId: string): Promise<{ id: string; revoked: true }> {
    const id = mandateId;
    const found = await this.transactions.run((m) => this.mandates.revoke(m, id, this.clock.now()));
    if (!found) throw new NotFoundError('mandate');
    return { id, revoked: true };
  }
}
