import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { isUuid } from '../../../shared/http/validation/constraints';
import { NotFoundError, toInputError } from '../../../shared/domain/errors';
import { ConsentRepository, type OAuthClient } from '../domain/consent.repository';
import { redirectUriViolations } from '../domain/redirect-uri';
import { generateClientSecret, sha256Hex } from '../domain/secrets';

/** Console: an app's OAuth client registration (CONTRACT §10) and the app read; client authentication (§11). */
@Injectable()
export class OAuthClientService {
  constructor(
    private readonly repo: ConsentRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** A new client secret replaces the previous one and is shown this once; only its hash is kept. */
  async register(appId: string, redirectUris: unknown[]): Promise<{ client_id: string; client_secret: string; redirect_uris: string[] }> {
    const id = appId;
    const violations = redirectUriViolations(redirectUris);
    if (violations.length > 0) throw toInputError(violations);
    const uris = redirectUris as string[];
    const secret = generateClientSecret();
    await this.transactions.run(async (m) => {
      if (!(await this.repo.findClient(m, id))) throw new NotFoundError('app');
      await this.repo.saveClient(m, id, sha256Hex(secret), uris, this.clock.now());
    });
    return { client_id: id, client_secret: secret, redirect_uris: uris };
  }

  async readApp(appId: string) {
    const app = await this.transactions.run((m) => this.repo.appRead(m, appId));
    if (!app) throw new NotFoundError('app');
    return app;
  }

  /** The registered client whose secret this is, or null (unknown client, no registration, wrong secret). */
  async authenticate(clientId: string, secret: string): Promise<OAuthClient | null> {
    if (!isUuid(clientId)) return null;
    const client = await this.transactions.run((m) => this.repo.findClient(m, clientId.toLowerCase()));
    if (!client?.secretHash) return null;
    const given = Buffer.from(sha256Hex(secret));
    const stored = Buffer.from(client.secretHash);
    return given.length === stored.length && timingSafeEqual(given, stored) ? client : null;
  }

  async find(clientId: string): Promise<OAuthClient | null> {
    if (!isUuid(clientId)) return null;
    return this.transactions.run((m) => this.repo.findClient(m, clientId.toLowerCase()));
  }
}
