import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { DomainError, NotFoundError, ResourceConflictError } from '../../../shared/domain/errors';
import { HostResolver } from '../../../shared/domain/host-resolver';
import { endpointHost, type HostScope, MAX_ENDPOINTS_PER_APP_ENVIRONMENT, TooManyEndpointsError, TooManyEndpointsOnHostError } from '../domain/endpoint-limits';
import {
  ENDPOINT_URL_PROBLEMS,
  type EndpointUrlProblem,
  isForbiddenAddress,
  isLiteralForbiddenHost,
  isLocalName,
  literalAddress,
  validateEndpointUrl,
} from '../domain/endpoint-address';
import { recoverSince } from '../domain/recover-window';
import { PREVIOUS_SECRET_SIGNS_HOURS, testEventBody, WEBHOOK_TEST_EVENT } from '../domain/webhook-events';
import { generateWebhookSecret, SECRET_ROTATIONS, SecretRotationsExhaustedError } from '../domain/webhook-secret';
import { WebhookRepository } from '../domain/webhook.repository';
import type { Environment } from '../../../shared/domain/caller-context';

const invalidUrl = (problem: EndpointUrlProblem) => {
  const detail = ENDPOINT_URL_PROBLEMS[problem];
  return new DomainError('invalid_input', `1 violation; first: /url ${detail}`, [{ pointer: '/url', code: 'invalid_input', detail }]).because(
    `webhookUrl.${problem}`,
  );
};

@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resolver: HostResolver,
    private readonly clock: Clock,
  ) {}

  /**
   * Registers an endpoint of an app for one environment and answers its signing secret once.
   * Loopback, private and link-local hosts are refused unless WEBHOOK_ALLOWED_NETWORKS lists their range,
   * for the operator's and the developers' endpoints alike (CONTRACT §2; checked again on the resolved
   * address at each delivery). At most MAX_ENDPOINTS_PER_APP_ENVIRONMENT per app
   * and environment, and, when `hostScope` is given (the developer console: the developer's apps), at most
   * `hostScope.max` on one host across the scope (409 resource_conflict, nothing stored).
   */
  async register(appId: string, rawUrl: string, environment: Environment, hostScope?: HostScope): Promise<{ id: string; secret: string }> {
    if (!(await this.webhooks.appExists(appId))) throw new NotFoundError('app');
    const checked = validateEndpointUrl(rawUrl);
    if (!checked.ok) throw invalidUrl(checked.problem);
    if (await this.isForbidden(checked.url)) throw invalidUrl('private');
    const host = endpointHost(checked.url);
    const endpoint = { id: randomUUID(), appId, environment, url: checked.url.toString(), host, secret: generateWebhookSecret() };
    const limits = { perAppEnvironment: MAX_ENDPOINTS_PER_APP_ENVIRONMENT, hostScope };
    const outcome = await this.transactions.run((m) => this.webhooks.insertEndpoint(m, endpoint, limits));
    if (outcome === 'app_full') throw new TooManyEndpointsError();
    if (outcome === 'host_full') throw new TooManyEndpointsOnHostError(hostScope?.max ?? 0, host);
    return { id: endpoint.id, secret: endpoint.secret };
  }

  /** CONTRACT §9, §10: enables the endpoint again; its pending deliveries become due at once. */
  async enable(endpointId: string): Promise<{ id: string; disabled: false }> {
    if (!(await this.webhooks.enableEndpoint(endpointId))) throw new NotFoundError('webhook endpoint');
    return { id: endpointId, disabled: false };
  }

  /**
   * CONTRACT §9 Rotate secret: a new `whsec_` secret, answered once; the one it replaces signs beside it
   * for 24 h (`webhook-signature: v1,<new> v1,<old>`), the one before that no more. At most
   * SECRET_ROTATIONS.max per endpoint within SECRET_ROTATIONS.windowHours (CONTRACT §20: 429 beyond).
   */
  async rotateSecret(endpointId: string): Promise<{ id: string; secret: string }> {
    const secret = generateWebhookSecret();
    const outcome = await this.webhooks.rotateSecret(endpointId, secret, PREVIOUS_SECRET_SIGNS_HOURS, SECRET_ROTATIONS);
    if (outcome === null) throw new NotFoundError('webhook endpoint');
    if (!outcome.rotated) throw new SecretRotationsExhaustedError(outcome.retryAfterSeconds);
    return { id: endpointId, secret };
  }

  /**
   * CONTRACT §9 Recover: every event of the endpoint's app and environment created since `since` (within
   * the retention), delivered to it again as a new delivery with its original webhook-id, timestamp and body.
   * The endpoint is judged first (404), then `since` (400 at /since), then whether it is disabled (409).
   */
  async recover(endpointId: string, sinceRaw: unknown): Promise<{ id: string; events: number }> {
    if (!(await this.webhooks.endpoint(endpointId))) throw new NotFoundError('webhook endpoint');
    const since = recoverSince(sinceRaw, this.clock.now(), this.config.webhookRetentionDays);
    const recovered = await this.webhooks.recover(endpointId, since);
    if (recovered === null) throw new NotFoundError('webhook endpoint');
    if (recovered === 'disabled') {
      throw new ResourceConflictError(
        `The endpoint is disabled: enable it first (POST /console/v1/webhook-endpoints/${endpointId}/enable, or Enable in the developer console), then recover`,
      ).because('webhookRecover.disabled');
    }
    return { id: endpointId, events: recovered.events };
  }

  /** CONTRACT §9 Test: one `webhook.test` event (`data` `{"endpoint_id"}`) to this endpoint only, never in the feed. */
  async sendTest(endpointId: string): Promise<{ id: string; webhook_id: string }> {
    const event = { id: randomUUID(), type: WEBHOOK_TEST_EVENT, createdAt: this.clock.now() };
    const sent = await this.webhooks.sendTest(endpointId, { ...event, body: testEventBody(endpointId, event.createdAt) });
    if (!sent) throw new NotFoundError('webhook endpoint');
    return { id: endpointId, webhook_id: event.id };
  }

  /** The app's endpoints for the console's app read (never a secret). */
  endpoints(appId: string): Promise<Array<{ id: string; url: string; environment: Environment; disabled: boolean }>> {
    return this.webhooks.endpointsOf(appId);
  }

  /** The active endpoints of these apps, oldest first (no secret). */
  endpointsOfApps(appIds: string[]): Promise<Array<{ id: string; appId: string; url: string; environment: string; disabled: boolean }>> {
    return this.webhooks.endpointsOfApps(appIds);
  }

  /** Deletes an endpoint of the app: no further attempts, its pending deliveries dropped (CONTRACT §15). */
  async remove(appId: string, endpointId: string): Promise<void> {
    const removed = await this.transactions.run((m) => this.webhooks.removeEndpoint(m, appId, endpointId, new Date()));
    if (!removed) throw new NotFoundError('webhook endpoint');
  }

  private async isForbidden(url: URL): Promise<boolean> {
    const allowed = this.config.webhookAllowedNetworks;
    if (isLiteralForbiddenHost(url, allowed)) return true;
    if (literalAddress(url) || isLocalName(url)) return false;
    try {
      return (await this.resolver.resolve(url.hostname)).some((a) => isForbiddenAddress(a.address, allowed));
    } catch {
      return false; // unresolvable now: judged again, on the resolved address, at each delivery
    }
  }
}
