// the scopes the service knows are the modules' (their facts.ts): the contract's, as the service loads them
import '../../../journal/facts';
import '../../../products/facts';
import '../../../receipts/facts';
import { Clock } from '../../../../shared/domain/clock';
import { DomainError } from '../../../../shared/domain/errors';
import { generateAccessToken, hashAccessToken } from '../domain/access-token';
import { AccessRepository, type TokenRecord } from '../domain/access.repository';
import { type AccessLookups, type Environment, NO_LOOKUPS } from '../../../../shared/domain/caller-context';
import { NOTHING_PREFETCHED } from '../../../../shared/domain/caller-context';

type StoredToken = Omit<TokenRecord, 'mandateId' | 'prefetched'>;
import { AccessCheckService } from './access-check.service';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const ORG = 'org-1';
const APP = 'app-1';

class FixedClock extends Clock {
  now(): Date {
    return NOW;
  }
}

/** An in-memory access state: tokens by hash and the active mandates of (organization, app). */
class FakeAccessRepository extends AccessRepository {
  readonly tokens = new Map<string, StoredToken>();
  readonly mandates = new Map<string, string>();
  readonly mandateLookups: Array<[string, string]> = [];

  async findToken(tokenHash: string, _environment: Environment, lookups: AccessLookups = NO_LOOKUPS): Promise<TokenRecord | null> {
    const token = this.tokens.get(tokenHash);
    if (!token) return null;
    let mandateId: string | null = null;
    if (lookups.mandate) {
      this.mandateLookups.push([token.organizationId, token.appId]);
      mandateId = this.mandates.get(`${token.organizationId}/${token.appId}`) ?? null;
    }
    return { ...token, mandateId, prefetched: NOTHING_PREFETCHED };
  }
}

function productionToken(repo: FakeAccessRepository, grant: Partial<NonNullable<TokenRecord['grant']>> = {}, overrides: Partial<StoredToken> = {}): string {
  const token = generateAccessToken('production');
  repo.tokens.set(hashAccessToken(token), {
    environment: 'production',
    organizationId: ORG,
    appId: APP,
    grantId: 'grant-1',
    generationId: null,
    appRevisionId: 'rev-1',
    currentGenerationId: null,
    grant: { scopes: ['journal:prepare', 'journal:post'], revokedAt: null, supersededAt: null, expiresAt: new Date(NOW.getTime() + 1000), ...grant },
    approvedRevisionId: 'rev-1',
    ...overrides,
  });
  return token;
}

function sandboxToken(repo: FakeAccessRepository): string {
  const token = generateAccessToken('sandbox');
  repo.tokens.set(hashAccessToken(token), {
    environment: 'sandbox',
    organizationId: ORG,
    appId: APP,
    grantId: null,
    generationId: 'gen-1',
    appRevisionId: null,
    currentGenerationId: 'gen-1',
    grant: null,
    approvedRevisionId: null,
  });
  return token;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  return 'ok';
}

describe('AccessCheckService — the posting mandate (CONTRACT §8)', () => {
  let repo: FakeAccessRepository;
  let service: AccessCheckService;

  beforeEach(() => {
    repo = new FakeAccessRepository();
    service = new AccessCheckService(repo, new FixedClock());
  });

  it('does not look for a mandate on a route that needs none, and reports none', async () => {
    const caller = await service.authenticate(`Bearer ${productionToken(repo)}`, 'production', { scope: 'journal:prepare', mandate: false });
    expect(caller.postingMandateId).toBeNull();
    expect(repo.mandateLookups).toEqual([]);
  });

  it('refuses a route that needs a mandate with 403 mandate_required when there is none', async () => {
    const token = productionToken(repo);
    expect(await codeOf(service.authenticate(`Bearer ${token}`, 'production', { scope: 'journal:post', mandate: true }))).toBe('mandate_required');
    expect(repo.mandateLookups).toEqual([[ORG, APP]]);
  });

  it('hands the active mandate of (organization, app) to the caller context', async () => {
    repo.mandates.set(`${ORG}/${APP}`, 'mandate-7');
    const caller = await service.authenticate(`Bearer ${productionToken(repo)}`, 'production', { scope: 'journal:post', mandate: true });
    expect(caller.postingMandateId).toBe('mandate-7');
    expect(Object.isFrozen(caller)).toBe(true);
  });

  it('does not take a mandate of another app of the organization', async () => {
    repo.mandates.set(`${ORG}/other-app`, 'mandate-8');
    const token = productionToken(repo);
    expect(await codeOf(service.authenticate(`Bearer ${token}`, 'production', { scope: 'journal:post', mandate: true }))).toBe('mandate_required');
  });

  it('checks the mandate after the grant, the revision and the scope', async () => {
    const need = { scope: 'journal:post' as const, mandate: true };
    expect(await codeOf(service.authenticate(`Bearer ${productionToken(repo, { revokedAt: NOW })}`, 'production', need))).toBe('grant_revoked');
    expect(await codeOf(service.authenticate(`Bearer ${productionToken(repo, { expiresAt: NOW })}`, 'production', need))).toBe('grant_expired');
    expect(await codeOf(service.authenticate(`Bearer ${productionToken(repo, {}, { approvedRevisionId: 'rev-2' })}`, 'production', need))).toBe(
      'app_revision_changed',
    );
    expect(await codeOf(service.authenticate(`Bearer ${productionToken(repo, { scopes: ['journal:prepare'] })}`, 'production', need))).toBe(
      'insufficient_scope',
    );
  });

  it('requires the mandate for a sandbox token too', async () => {
    const token = sandboxToken(repo);
    const need = { scope: 'journal:post' as const, mandate: true };
    expect(await codeOf(service.authenticate(`Bearer ${token}`, 'sandbox', need))).toBe('mandate_required');
    repo.mandates.set(`${ORG}/${APP}`, 'mandate-9');
    expect((await service.authenticate(`Bearer ${token}`, 'sandbox', need)).postingMandateId).toBe('mandate-9');
  });
});
