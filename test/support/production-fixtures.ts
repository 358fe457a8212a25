import { randomUUID } from 'node:crypto';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { Clock } from '../../src/shared/domain/clock';
import { SCOPES } from '../../src/shared/domain/scopes';
import type { TestApp } from './test-app';
import { TEST_CONSOLE_KEY } from './test-app';

/** A clock the test moves by hand (grant expiry, TOTP steps); it stands still otherwise. */
export class ManualClock extends Clock {
  constructor(private ms: number = Date.now()) {
    super();
  }

  now(): Date {
    return new Date(this.ms);
  }

  nowMs(): number {
    return this.ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}

/** POST to the console API with the console key; `body` undefined sends `{}`. */
export function consolePost(app: TestApp, path: string, body: unknown = {}) {
  return app
    .console()
    .post(`/console/v1${path}`)
    .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
    .send(body as object);
}

async function created<T>(res: { status: number; body: unknown }, what: string, status = 201): Promise<T> {
  if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export interface ProductionOrganization {
  id: string;
  accounts: Array<{ id: string; number: string; name: string }>;
}

/** A production organization with `accounts` accounts numbered 1000, 1010, … */
export async function aProductionOrganization(app: TestApp, options: { accounts?: number; name?: string } = {}): Promise<ProductionOrganization> {
  const org = await created<{ id: string }>(await consolePost(app, '/organizations', { name: options.name ?? 'Test ApS' }), 'organization');
  const accounts: ProductionOrganization['accounts'] = [];
  for (let i = 0; i < (options.accounts ?? 3); i++) {
    const account = { number: String(1000 + 10 * i), name: `Konto ${i + 1}` };
    const res = await created<{ id: string }>(await consolePost(app, `/organizations/${org.id}/accounts`, account), 'account');
    accounts.push({ id: res.id, ...account });
  }
  return { id: org.id, accounts };
}

export interface Owner {
  user_id: string;
  totp_secret: string;
}

/**
 * A new owner. The email is unique by default: an email enrolled before is the same user, and its
 * `totp_secret` is then not shown again (CONTRACT §10).
 */
export async function anOwner(app: TestApp, organizationId: string, email = `owner-${randomUUID()}@example.dk`): Promise<Owner> {
  return created<Owner>(await consolePost(app, `/organizations/${organizationId}/owners`, { email }), 'owner');
}

/** An app with revision 1 approved. */
export async function anApprovedApp(app: TestApp, name = 'Test app'): Promise<{ id: string; revision_id: string }> {
  const a = await created<{ id: string }>(await consolePost(app, '/apps', { name }), 'app');
  const rev = await created<{ id: string }>(await consolePost(app, `/apps/${a.id}/revisions`), 'revision');
  await created(await consolePost(app, `/apps/${a.id}/revisions/${rev.id}/approve`), 'approval', 200);
  return { id: a.id, revision_id: rev.id };
}

/** The owner's code at `atMs` (default: now by the system clock). */
export function codeOf(owner: Owner, atMs: number = Date.now()): string {
  return totpCodeAt(owner.totp_secret, atMs);
}

export async function aToken(app: TestApp, grantId: string): Promise<string> {
  return (await created<{ token: string }>(await consolePost(app, `/grants/${grantId}/tokens`), 'token')).token;
}

/**
 * A token of a second approved app in `prod`'s organization, on the same accounts with `scopes`, granted by
 * a second owner (one TOTP use per owner and time step): "another app of the same organization".
 */
export async function anotherAppsToken(app: TestApp, prod: ProductionAccess, scopes: string[]): Promise<string> {
  const otherApp = await anApprovedApp(app);
  const owner = await anOwner(app, prod.organization.id);
  const grant = await created<{ id: string }>(
    await consolePost(app, `/organizations/${prod.organization.id}/grants`, {
      app_id: otherApp.id,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner),
      account_ids: prod.grantedAccountIds,
      scopes,
    }),
    'grant',
  );
  return aToken(app, grant.id);
}

export interface ProductionAccess {
  organization: ProductionOrganization;
  app: { id: string; revision_id: string };
  owner: Owner;
  grant: { id: string; expires_at: string };
  token: string;
  /** the accounts the grant selected */
  grantedAccountIds: string[];
}

/**
 * A whole production set-up through the console API: organization with accounts, an owner, an approved
 * app, a grant signed with the owner's code at `nowMs` (pass the test's clock when the app has one)
 * and a token. By default the grant selects all accounts but the last, with every scope.
 */
export async function aProductionAccess(
  app: TestApp,
  options: { scopes?: string[]; accounts?: number; grantedAccounts?: number; duration_seconds?: number; nowMs?: number } = {},
): Promise<ProductionAccess> {
  const organization = await aProductionOrganization(app, { accounts: options.accounts ?? 3 });
  const owner = await anOwner(app, organization.id);
  const theApp = await anApprovedApp(app);
  const grantedAccountIds = organization.accounts.slice(0, options.grantedAccounts ?? organization.accounts.length - 1).map((a) => a.id);
  const grant = await created<{ id: string; expires_at: string }>(
    await consolePost(app, `/organizations/${organization.id}/grants`, {
      app_id: theApp.id,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner, options.nowMs),
      account_ids: grantedAccountIds,
      scopes: options.scopes ?? [...SCOPES],
      ...(options.duration_seconds !== undefined ? { duration_seconds: options.duration_seconds } : {}),
    }),
    'grant',
  );
  const token = await aToken(app, grant.id);
  return { organization, app: theApp, owner, grant, token, grantedAccountIds };
}
