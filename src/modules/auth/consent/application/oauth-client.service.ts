import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { isUuid } from '../../../../shared/http/validation/constraints';
import { NotFoundError } from '../../../../shared/domain/errors';
import type { Transaction } from '../../../../shared/domain/transaction';
import { AppReadRepository } from '../../apps';
import { ConsentRepository, type OAuthClient } from '../domain/consent.repository';
import { noRedirectUrisError, redirectUrisError } from '../domain/redirect-uri';
import { SecretBox } from '../../../../shared/crypto/secret-box';
import { generateClientSecret, isIssuedClientSecret, sha256Hex } from '../domain/secrets';

/** Console: an app's OAuth client registration (CONTRACT §10) and the app read; client authentication (§11). */
@Injectable()
export class OAuthClientService {
  constructor(
    private readonly repo: ConsentRepository,
    private readonly apps: AppReadRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly box: SecretBox,
  ) {}

  /** Whether this service issued `secret` for `clientId` (no I/O): only such credentials are looked up over the anonymous limit (CONTRACT §20). */
  issuedFor(clientId: string, secret: string): boolean {
    return isUuid(clientId) && isIssuedClientSecret(this.box, clientId, secret);
  }

  /** A new client secret replaces the previous one and is shown this once; only its hash is kept. */
  async register(appId: string, redirectUris: unknown[]): Promise<{ client_id: string; client_secret: string; redirect_uris: string[] }> {
    const id = appId;
    const refused = redirectUrisError(redirectUris);
    if (refused) throw refused;
    const uris = redirectUris as string[];
    const secret = generateClientSecret(this.box, appId);
    await this.transactions.run(async (m) => {
      if (!(await this.findClient(m, id))) throw new NotFoundError('app');
      await this.repo.saveClient(m, id, sha256Hex(secret), uris, this.clock.now());
    });
    return { client_id: id, client_secret: secret, redirect_uris: uris };
  }

  /**
   * The developer console's **Save redirect URIs** (CONTRACT §15): replaces the URIs and keeps the
   * secret (at least one URI: CONTRACT §21). An app without a registration gets one whose secret nobody
   * knows until **New client secret**.
   */
  async setRedirectUris(appId: string, redirectUris: unknown[]): Promise<string[]> {
    if (redirectUris.length === 0) throw noRedirectUrisError();
    const refused = redirectUrisError(redirectUris);
    if (refused) throw refused;
    const uris = redirectUris as string[];
    await this.transactions.run(async (m) => {
      if (!(await this.apps.app(m, appId))) throw new NotFoundError('app');
      const registration = await this.repo.findClientRegistration(m, appId);
      await this.repo.saveClient(m, appId, registration?.secretHash ?? sha256Hex(generateClientSecret(this.box, appId)), uris, this.clock.now());
    });
    return uris;
  }

  /**
   * The developer console's **New client secret**: a new `hcs_` secret replaces the previous one, URIs
   * kept; shown once. The previous one keeps working `keepPreviousSeconds` more (CONTRACT §21), until
   * `previous_until`.
   */
  async newClientSecret(appId: string, keepPreviousSeconds = 0): Promise<{ client_id: string; client_secret: string; previous_until: Date | null }> {
    const secret = generateClientSecret(this.box, appId);
    const previousUntil = await this.transactions.run(async (m) => {
      if (!(await this.apps.app(m, appId))) throw new NotFoundError('app');
      const registration = await this.repo.findClientRegistration(m, appId);
      if (registration) return this.repo.replaceSecret(m, appId, sha256Hex(secret), keepPreviousSeconds, this.clock.now());
      await this.repo.saveClient(m, appId, sha256Hex(secret), [], this.clock.now());
      return null;
    });
    return { client_id: appId, client_secret: secret, previous_until: previousUntil };
  }

  async readApp(appId: string) {
    const app = await this.transactions.run(async (m) => {
      const found = await this.apps.app(m, appId);
      if (!found) return null;
      const revisions = await this.apps.revisions(m, appId);
      const registration = await this.repo.findClientRegistration(m, appId);
      return { id: found.id, name: found.name, revisions, redirect_uris: registration?.redirectUris ?? [] };
    });
    if (!app) throw new NotFoundError('app');
    return app;
  }

  /** The registered client whose secret this is, or null (unknown client, no registration, wrong secret). */
  async authenticate(clientId: string, secret: string): Promise<OAuthClient | null> {
    if (!isUuid(clientId)) return null;
    const client = await this.transactions.run((m) => this.findClient(m, clientId.toLowerCase()));
    if (!client?.secretHash) return null;
    const given = Buffer.from(sha256Hex(secret));
    const matches = (hash: string | null | undefined) => {
      const stored = Buffer.from(hash ?? '');
      return given.length === stored.length && timingSafeEqual(given, stored);
    };
    // the previous secret while the developer chose to keep it working (CONTRACT §21)
    return matches(client.secretHash) || matches(client.previousSecretHash) ? client : null;
  }

  async find(clientId: string): Promise<OAuthClient | null> {
    if (!isUuid(clientId)) return null;
    return this.transactions.run((m) => this.findClient(m, clientId.toLowerCase()));
  }

  /** The app and its OAuth registration (secret hash and redirect URIs null/empty when unregistered). */
  private async findClient(tx: Transaction, appId: string): Promise<OAuthClient | null> {
    const app = await this.apps.app(tx, appId);
    if (!app) return null;
    const registration = await this.repo.findClientRegistration(tx, appId);
    return {
      appId: app.id,
      appName: app.name,
      approvedRevisionId: app.approvedRevisionId,
      secretHash: registration?.secretHash ?? null,
      previousSecretHash: registration?.previousSecretHash ?? null,
      redirectUris: registration?.redirectUris ?? [],
    };
  }
}
