import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { SCOPES } from '../../../shared/domain/scopes';
import { DemoCompanyService } from './demo-company.service';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { Transactions } from '../../../shared/database/transactions';
import { NotFoundError } from '../../../shared/domain/errors';
import { Clock } from '../../../shared/domain/clock';
import type { Environment } from '../../../shared/domain/caller-context';
import { baseUrl } from '../../../shared/http/partner-paths';
import { isUuid } from '../../../shared/http/validation/constraints';
import { type AppPublisher, AppReadRepository, AppService, NO_PUBLISHER, type PublisherDraft } from '../../auth/apps';
import { OAuthClientService } from '../../auth/consent';
import { OrganizationReadRepository } from '../../auth/organizations';
import { SandboxService } from '../../auth/sandbox';
import { type DeliveryDetailView, WebhookDeliveryReadRepository, WebhookEndpointsService } from '../../webhooks';
import { type JournalEntryView, JournalReadsService } from '../../journal';
import {
  type DeveloperApp,
  DeveloperRepository,
  type LoggedCall,
  type QuotaKind,
  REQUEST_LOG_SCAN,
  type RequestLogFilter,
} from '../domain/developer.repository';
import {
  DEVELOPER_QUOTAS,
  type HourlyQuota,
  HourlyQuotaError,
  QUOTA_WINDOW_MS,
  RevisionPendingError,
  secondsUntilFree,
  TooManyAppsError,
} from '../domain/developer-quotas';

/** An app name as the console takes it. */
export const APP_NAME_MAX = 200;
/**
 * Issue 35: at most this many webhook endpoints of one developer (all their apps, sandbox and production)
 * point to one host, so that self-service cannot aim hundreds of endpoints at someone else's server. The
 * operator's console API registers without it (it still has the cap per app and environment).
 */
export const MAX_ENDPOINTS_PER_HOST = DEVELOPER_QUOTAS.webhookEndpointsPerHost;
/** CONTRACT §15: the latest 20 deliveries; the request log 50 calls a page. */
export const DELIVERIES_SHOWN = 20;
export const REQUEST_LOG_PAGE = 50;
/** CONTRACT §15 **Sandbox entries**: the latest this many, newest first. */
export const SANDBOX_ENTRIES_SHOWN = 50;

/** CONTRACT §20: attachment bytes held against SANDBOX_STORAGE_MAX_BYTES (`max` 0: no limit). */
export interface StorageUse {
  used: number;
  max: number;
}

/** Everything the app page shows (never a secret: those are shown by the action that issues them). */
export interface AppPageView {
  id: string;
  name: string;
  baseUrls: { sandbox: string; production: string };
  sandbox: { projectId: string; organizationId: string; accounts: Array<{ id: string; number: string; name: string }>; storage: StorageUse };
  redirectUris: string[];
  /** CONTRACT §18, §21: the publisher as the developer last saved it (owners see it once a revision carrying it is approved) */
  publisher: AppPublisher;
  /** CONTRACT §21: the publisher owners see now (the approved revision's), and whether the operator verified it */
  approvedPublisher: AppPublisher | null;
  publisherVerified: boolean;
  revisions: Array<{ id: string; number: number; approved: boolean }>;
  endpoints: Array<{ id: string; url: string; environment: Environment; disabled: boolean }>;
  /** the latest deliveries of both environments, with their attempts (CONTRACT §15 "What happened to a delivery") */
  deliveries: DeliveryDetailView[];
  /** how far back **Recover** reaches (WEBHOOK_RETENTION_DAYS) */
  webhookRetentionDays: number;
  requestLog: {
    filter: RequestLogFilter;
    calls: Array<LoggedCall & { id: string; environment: Environment }>;
    /** the Older page's `before`, when there is one */
    older: string | null;
    /** a Path contains page stopped after examining this many calls (REQUEST_LOG_SCAN), else null */
    scanStoppedAfter: number | null;
  };
  /** CONTRACT §15, §17: the app's sandbox entries, newest first, with their attachments */
  sandboxEntries: JournalEntryView[];
  /**
   * CONTRACT §15, the demo company: its id and name, and **Connect the demo company** — the authorization
   * request for the app's first redirect URI (null without one), with the PKCE verifier its challenge was
   * made from, for the token exchange.
   */
  demo: { id: string; name: string; storage: StorageUse; connect: { href: string; codeVerifier: string; redirectUri: string } | null } | null;
}

/**
 * The authorization request of **Connect the demo company**: every scope, the demo company named, PKCE S256.
 * Issue 45: the verifier and state are derived from the page session's secret (`sessionKey`, never shown),
 * so every load of the app page in one session shows the same link and verifier — a developer who copied
 * the verifier and reloads, or opens the page again, still holds the right one; a new session, a new pair.
 */
export function demoConnectRequest(
  appId: string,
  redirectUri: string,
  organizationId: string,
  sessionKey: string,
): { href: string; codeVerifier: string; redirectUri: string } {
  const derived = (purpose: string) => createHmac('sha256', sessionKey).update(`demo-connect ${purpose} ${appId}`).digest('base64url');
  const codeVerifier = derived('code_verifier');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: appId,
    redirect_uri: redirectUri,
    scope: SCOPES.join(' '),
    state: derived('state').slice(0, 16),
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
    organization_id: organizationId,
  });
  return { href: `/oauth/authorize?${query.toString()}`, codeVerifier, redirectUri };
}

/**
 * A developer's apps (CONTRACT §15), through the owners' services: the app (apps), its sandbox project
 * (sandbox, made as §10 makes one), its OAuth client (consent), its webhook endpoints and deliveries
 * (webhooks). This module owns only who made which app, and the request log.
 */
@Injectable()
export class DeveloperAppsService {
  constructor(
    private readonly repo: DeveloperRepository,
    private readonly transactions: Transactions,
    private readonly apps: AppService,
    private readonly appReads: AppReadRepository,
    private readonly sandbox: SandboxService,
    private readonly organizations: OrganizationReadRepository,
    private readonly oauth: OAuthClientService,
    private readonly endpointsService: WebhookEndpointsService,
    private readonly deliveryReads: WebhookDeliveryReadRepository,
    private readonly clock: Clock,
    private readonly journalReads: JournalReadsService,
    private readonly demoCompany: DemoCompanyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(developerId: string): Promise<Array<{ id: string; name: string }>> {
    return this.transactions.run(async (m) => {
      const mine = await this.repo.appsOf(m, developerId);
      const names = new Map(
        (
          await this.appReads.names(
            m,
            mine.map((a) => a.appId),
          )
        ).map((a) => [a.id, a.name]),
      );
      return mine.map((a) => ({ id: a.appId, name: names.get(a.appId) ?? '' }));
    });
  }

  /** **Create app**: a place of the 25 is reserved first, then the app and its sandbox project are made. */
  async create(developerId: string, name: string): Promise<{ id: string }> {
    const reservation = randomUUID();
    const reserved = await this.transactions.run((m) => this.repo.reserveApp(m, developerId, reservation, DEVELOPER_QUOTAS.apps));
    if (!reserved) throw new TooManyAppsError();
    try {
      const app = await this.apps.createApp(name);
      // the sandbox project under the app's own id: its events and endpoints are the app's (CONTRACT §10)
      const project = await this.sandbox.provisionProject(name, app.id);
      await this.transactions.run((m) =>
        this.repo.completeApp(m, reservation, {
          appId: app.id,
          sandboxProjectId: project.project_id,
          sandboxOrganizationId: project.organization_id,
          sandboxAppId: project.app_id,
        }),
      );
      return { id: app.id };
    } catch (err) {
      await this.transactions.run((m) => this.repo.dropReservation(m, reservation));
      throw err;
    }
  }

  /** The developer's app, or 404 (an unknown app and another developer's app look the same). */
  async own(developerId: string, appIdRaw: string): Promise<DeveloperApp> {
    if (!isUuid(appIdRaw)) throw new NotFoundError('app');
    const found = await this.transactions.run((m) => this.repo.appOf(m, developerId, appIdRaw.toLowerCase()));
    if (!found) throw new NotFoundError('app');
    return found;
  }

  /** REQUEST_LOG_RETENTION_DAYS, as the page says it */
  get requestLogDays(): number {
    return this.config.requestLogRetentionDays;
  }

  /** `sessionKey`: the page session's secret, from which **Connect the demo company** derives its PKCE pair (a random one without). */
  async page(app: DeveloperApp, logFilter: RequestLogFilter = {}, sessionKey: string = randomBytes(32).toString('base64url')): Promise<AppPageView> {
    const read = await this.oauth.readApp(app.appId);
    const org = await this.organizations.organization(app.sandboxOrganizationId);
    const endpoints = await this.endpointsService.endpointsOfApps([app.appId, app.sandboxAppId]);
    const deliveries = await this.deliveryReads.details([app.appId, app.sandboxAppId], DELIVERIES_SHOWN);
    const log = await this.transactions.run((m) => this.repo.requestLog(m, [app.appId, app.sandboxAppId], logFilter, REQUEST_LOG_PAGE + 1));
    const calls = log.calls.slice(0, REQUEST_LOG_PAGE);
    const summary = await this.transactions.run((m) => this.appReads.app(m, app.appId));
    const sandboxEntries = await this.journalReads.newestSandboxEntries(app.sandboxOrganizationId, app.sandboxAppId, SANDBOX_ENTRIES_SHOWN);
    const demo = await this.demoCompany.ensure(app.developerId);
    const [sandboxUse, demoUse] = await this.transactions.run((m) => this.repo.attachmentStorage(m, [app.sandboxOrganizationId, ...(demo ? [demo.id] : [])]));
    const max = this.config.sandboxStorageMaxBytes;
    return {
      demo: demo && {
        ...demo,
        storage: { used: demoUse, max },
        connect: read.redirect_uris.length > 0 ? demoConnectRequest(app.appId, read.redirect_uris[0], demo.id, sessionKey) : null,
      },
      id: app.appId,
      name: read.name,
      baseUrls: { sandbox: baseUrl(this.config.publicOrigin, 'sandbox'), production: baseUrl(this.config.publicOrigin, 'production') },
      sandbox: {
        projectId: app.sandboxProjectId,
        organizationId: app.sandboxOrganizationId,
        // CONTRACT §7: in the database's natural order (OrganizationsSql.accountOrder), as every list of accounts
        accounts: (org?.accounts ?? []).filter((a) => a.active).map((a) => ({ id: a.id, number: a.number, name: a.name })),
        storage: { used: sandboxUse, max },
      },
      redirectUris: read.redirect_uris,
      publisher: summary?.draftPublisher ?? NO_PUBLISHER,
      approvedPublisher: summary?.approvedRevisionId ? summary.publisher : null,
      publisherVerified: summary?.publisherVerified ?? false,
      revisions: read.revisions,
      endpoints: endpoints.map((e) => ({ id: e.id, url: e.url, environment: e.environment as Environment, disabled: e.disabled })),
      deliveries,
      webhookRetentionDays: this.config.webhookRetentionDays,
      requestLog: {
        filter: logFilter,
        calls: calls.map((c) => ({ ...c, environment: c.environment as Environment })),
        // a Path contains page that examined its share of calls continues below the last one it examined
        older: log.calls.length > REQUEST_LOG_PAGE ? calls[calls.length - 1].id : log.scannedTo,
        scanStoppedAfter: log.calls.length <= REQUEST_LOG_PAGE && log.scannedTo !== null ? REQUEST_LOG_SCAN : null,
      },
      sandboxEntries,
    };
  }

  /**
   * **New sandbox token**: a new generation of the app's sandbox project; the previous one's tokens stop
   * working. At most DEVELOPER_QUOTAS.sandboxTokensPerHour per developer (all apps), counted under the
   * developer's row lock (429 past it).
   */
  /** **New sandbox token**; the previous one works `keepPreviousSeconds` more (CONTRACT §21), until `previous_until`. */
  async newSandboxToken(app: DeveloperApp, keepPreviousSeconds = 0): Promise<{ token: string; previous_until: Date | null }> {
    await this.useHourlyQuota(
      app.developerId,
      'sandbox_token',
      'sandboxTokensPerHour',
      (n) => `You made ${n} sandbox tokens within the hour, the most there may be`,
    );
    return this.sandbox.provisionGeneration(app.sandboxProjectId, keepPreviousSeconds);
  }

  /** One use of a developer's hourly quota, counted and recorded under the developer's row lock; 429 past it. */
  private async useHourlyQuota(developerId: string, kind: QuotaKind, quota: HourlyQuota, what: (n: number) => string): Promise<void> {
    const now = this.clock.now();
    await this.transactions.run(async (m) => {
      await this.repo.lock(m, developerId);
      const used = await this.repo.quotaUses(m, developerId, kind, new Date(now.getTime() - QUOTA_WINDOW_MS));
      if (used.n >= DEVELOPER_QUOTAS[quota]) throw new HourlyQuotaError(secondsUntilFree(used.oldest as Date, now), what(used.n), quota);
      await this.repo.recordQuotaUse(m, developerId, kind, now);
    });
  }

  /** A delivery by hand (Resend, Send test event, Recover): at most DEVELOPER_QUOTAS.resendsPerHour per developer, all apps. */
  private byHand(app: DeveloperApp): Promise<void> {
    return this.useHourlyQuota(app.developerId, 'resend', 'resendsPerHour', (n) => `You made ${n} deliveries by hand within the hour, the most there may be`);
  }

  /** **Save redirect URIs**: one per line; blank lines are ignored. Throws invalid_input with `/redirect_uris/N` pointers. */
  saveRedirectUris(app: DeveloperApp, text: string): Promise<string[]> {
    const uris = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    return this.oauth.setRedirectUris(app.appId, uris);
  }

  newClientSecret(app: DeveloperApp, keepPreviousSeconds = 0): Promise<{ client_id: string; client_secret: string; previous_until: Date | null }> {
    return this.oauth.newClientSecret(app.appId, keepPreviousSeconds);
  }

  /**
   * **Add endpoint**: a sandbox endpoint belongs to the sandbox project's app, whose tokens make the sandbox
   * events. Within the caps per app and environment and per host across the developer's apps (409
   * resource_conflict: TooManyEndpointsError, TooManyEndpointsOnHostError).
   */
  async addEndpoint(developerId: string, app: DeveloperApp, url: string, environment: Environment): Promise<{ id: string; secret: string }> {
    const mine = await this.transactions.run((m) => this.repo.appsOf(m, developerId));
    const hostScope = { key: developerId, appIds: mine.flatMap((a) => [a.appId, a.sandboxAppId]), max: MAX_ENDPOINTS_PER_HOST };
    return this.endpointsService.register(environment === 'sandbox' ? app.sandboxAppId : app.appId, url, environment, hostScope);
  }

  /** One of the app's active endpoints (sandbox or production), or null: what a confirmation names. */
  async endpointOf(app: DeveloperApp, endpointIdRaw: unknown): Promise<{ id: string; appId: string; url: string; environment: string } | null> {
    if (typeof endpointIdRaw !== 'string' || !isUuid(endpointIdRaw)) return null;
    const id = endpointIdRaw.toLowerCase();
    const mine = await this.endpointsService.endpointsOfApps([app.appId, app.sandboxAppId]);
    return mine.find((e) => e.id === id) ?? null;
  }

  /** **Delete**: the endpoint and its pending deliveries; what was deleted (for the status message). */
  async deleteEndpoint(app: DeveloperApp, endpointIdRaw: unknown): Promise<{ url: string }> {
    const endpoint = await this.endpointOf(app, endpointIdRaw);
    if (!endpoint) throw new NotFoundError('webhook endpoint');
    await this.endpointsService.remove(endpoint.appId, endpoint.id);
    return { url: endpoint.url };
  }

  /** The publisher fields of the app page (CONTRACT §18, §21); invalid_input names the field (`/publisher_name`, `/website`, `/privacy_policy`, `/cvr`). */
  setPublisher(app: DeveloperApp, input: PublisherDraft): Promise<void> {
    return this.apps.setPublisher(app.appId, input);
  }

  /** **Send test event** (CONTRACT §15 Webhook tools): the console's test call, for this app's endpoint only. */
  async sendTest(app: DeveloperApp, endpointIdRaw: unknown): Promise<{ id: string; webhook_id: string }> {
    const endpoint = await this.ownEndpoint(app, endpointIdRaw);
    await this.byHand(app);
    return this.endpointsService.sendTest(endpoint.id);
  }

  /** **Recover** with **Since**: the console's recover (400 at /since, 409 while disabled). */
  async recover(app: DeveloperApp, endpointIdRaw: unknown, since: unknown): Promise<{ id: string; events: number }> {
    const endpoint = await this.ownEndpoint(app, endpointIdRaw);
    await this.byHand(app);
    return this.endpointsService.recover(endpoint.id, since);
  }

  /** **Rotate secret**: the new secret, shown once; the previous one signs beside it for 24 h. */
  async rotateSecret(app: DeveloperApp, endpointIdRaw: unknown): Promise<{ id: string; secret: string }> {
    return this.endpointsService.rotateSecret((await this.ownEndpoint(app, endpointIdRaw)).id);
  }

  /** **Enable** a disabled endpoint: its pending deliveries become due at once. */
  async enable(app: DeveloperApp, endpointIdRaw: unknown): Promise<void> {
    await this.endpointsService.enable((await this.ownEndpoint(app, endpointIdRaw)).id);
  }

  /** An active endpoint of this app (either environment), or 404: another app's endpoint is as unknown as none. */
  private async ownEndpoint(app: DeveloperApp, endpointIdRaw: unknown): Promise<{ id: string; appId: string }> {
    const endpoint = await this.endpointOf(app, endpointIdRaw);
    if (!endpoint) throw new NotFoundError('webhook endpoint');
    return endpoint;
  }

  /** **Resend**: one more attempt at once (the console's resend), for a delivery of this app's endpoints only. */
  async resend(app: DeveloperApp, eventIdRaw: unknown, endpointIdRaw: unknown): Promise<void> {
    if (typeof eventIdRaw !== 'string' || typeof endpointIdRaw !== 'string' || !isUuid(eventIdRaw) || !isUuid(endpointIdRaw))
      throw new NotFoundError('webhook delivery');
    const endpointId = endpointIdRaw.toLowerCase();
    const endpoints = await this.endpointsService.endpointsOfApps([app.appId, app.sandboxAppId]);
    if (!endpoints.some((e) => e.id === endpointId)) throw new NotFoundError('webhook delivery');
    await this.byHand(app);
    if (!(await this.deliveryReads.resend(eventIdRaw.toLowerCase(), endpointId))) throw new NotFoundError('webhook delivery');
  }

  /**
   * **Submit for review**: the next revision, not approved; the operator approves it (CONTRACT §10).
   * Refused (422 on the page) while one of the app's revisions waits for review (DEVELOPER_QUOTAS).
   */
  async submitRevision(app: DeveloperApp): Promise<{ id: string; number: number }> {
    const created = await this.apps.createRevision(app.appId, { unlessPending: true });
    if (!created) throw new RevisionPendingError();
    return created;
  }
}
