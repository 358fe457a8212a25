import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../shared/config/app-config';
import { Transactions } from '../../../../shared/database/transactions';
import { NotFoundError } from '../../../../shared/domain/errors';
import { baseUrl } from '../../../../shared/http/partner-paths';
import { generateAccessToken, hashAccessToken } from '../../access';
import { SANDBOX_ACCOUNTS, SANDBOX_TAX_CODES } from '../domain/sandbox-chart';
import { SandboxRepository } from '../domain/sandbox.repository';

export interface ProvisionedSandboxProject {
  project_id: string;
  organization_id: string;
  app_id: string;
  generation_id: string;
  token: string;
  base_url: string;
  accounts: Array<{ id: string; number: string; name: string }>;
  tax_codes: Array<{ id: string; code: string }>;
}

/** Sandbox projects: a separate organization with a sample chart and one app generation (CONTRACT §8, §10). */
@Injectable()
export class SandboxService {
  constructor(
    private readonly sandbox: SandboxRepository,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The oldest sandbox project's id, or null (the first start's message names it). */
  firstProjectId(): Promise<string | null> {
    return this.sandbox.firstProjectId();
  }

  /**
   * A new sandbox project with an app of its own, or, given `appId`, under that existing app (a developer's
   * app: its sandbox tokens, events and endpoints are then the app's own, CONTRACT §10 "under the app's own
   * id"). The app must exist.
   */
  async provisionProject(name: string | null, appId?: string): Promise<ProvisionedSandboxProject> {
    const token = generateAccessToken('sandbox');
    const plan = {
      projectId: randomUUID(),
      name: name ?? 'Sandbox project',
      organizationId: randomUUID(),
      appId: appId ?? randomUUID(),
      newApp: appId === undefined,
      generationId: randomUUID(),
      mandateId: randomUUID(),
      tokenHash: hashAccessToken(token),
      accounts: SANDBOX_ACCOUNTS.map((a) => ({ id: randomUUID(), ...a })),
      taxCodes: SANDBOX_TAX_CODES.map((t) => ({ id: randomUUID(), ...t })),
    };
    await this.transactions.run((m) => this.sandbox.createProject(m, plan));
    return {
      project_id: plan.projectId,
      organization_id: plan.organizationId,
      app_id: plan.appId,
      generation_id: plan.generationId,
      token,
      base_url: baseUrl(this.config.publicOrigin, 'sandbox'),
      accounts: plan.accounts,
      tax_codes: plan.taxCodes.map(({ id, code }) => ({ id, code })),
    };
  }

  /**
   * A new generation supersedes the previous one: its tokens become invalid_token — at once, or after
   * `keepPreviousSeconds` (CONTRACT §21: the developer console's choice), until `previous_until`.
   */
  async provisionGeneration(projectId: string, keepPreviousSeconds = 0): Promise<{ generation_id: string; token: string; previous_until: Date | null }> {
    const token = generateAccessToken('sandbox');
    const generationId = randomUUID();
    const found = await this.transactions.run((m) => this.sandbox.createGeneration(m, projectId, generationId, hashAccessToken(token), keepPreviousSeconds));
    if (!found) throw new NotFoundError('sandbox project');
    return { generation_id: generationId, token, previous_until: found.previousUntil };
  }
}
