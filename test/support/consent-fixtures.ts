import { createHash, randomBytes } from 'node:crypto';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { SCOPES } from '../../src/shared/domain/scopes';
import { anApprovedApp, aProductionOrganization, consolePost, type ManualClock, type ProductionOrganization } from './production-fixtures';
import type { TestApp } from './test-app';
import { AppService } from '../../src/modules/auth/apps';

export const PASSWORD = 'korrekt hest batteri hæfteklamme';
export const REDIRECT_URI = 'http://127.0.0.1:8765/callback';
/** Every scope of the registry, as an authorization request's `scope`. */
export const ALL_SCOPES = SCOPES.join(' ');

export interface ConsentSetup {
  organization: ProductionOrganization;
  owner: { user_id: string; totp_secret: string; email: string };
  app: { id: string; revision_id: string };
  client: { client_id: string; client_secret: string };
}

async function ok<T>(res: { status: number; body: unknown }, status: number, what: string): Promise<T> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

let emails = 0;

/** An organization with accounts, an owner with a password, an approved app with an OAuth client. */
export async function aConsentSetup(
  app: TestApp,
  options: { accounts?: number; email?: string; redirectUris?: string[]; appName?: string } = {},
): Promise<ConsentSetup> {
  const organization = await aProductionOrganization(app, { accounts: options.accounts ?? 3, name: 'Bager Hansen ApS' });
  const email = options.email ?? `owner${++emails}-${randomBytes(4).toString('hex')}@example.dk`;
  const owner = await ok<{ user_id: string; totp_secret: string }>(
    await consolePost(app, `/organizations/${organization.id}/owners`, { email, password: PASSWORD }),
    201,
    'owner',
  );
  const theApp = await anApprovedApp(app, options.appName ?? 'Bogføringsappen');
  const client = await ok<{ client_id: string; client_secret: string }>(
    await consolePost(app, `/apps/${theApp.id}/oauth`, { redirect_uris: options.redirectUris ?? [REDIRECT_URI] }),
    200,
    'oauth client',
  );
  return { organization, owner: { ...owner, email }, app: theApp, client };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeQuery(s: ConsentSetup, challenge: string, extra: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: s.client.client_id,
    redirect_uri: REDIRECT_URI,
    scope: ALL_SCOPES,
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
  return q.toString();
}

/** Every page body and redirect Location the drivers saw, for the no-leak checks. */
export const SEEN = { bodies: [] as string[], locations: [] as string[] };

/** A cookie jar and form driver over supertest for the consent pages (plain HTTP, no browser). */
export class PageDriver {
  readonly cookies = new Map<string, string>();
  lastCsrf = '';
  /** sent with every request (e.g. X-Forwarded-For under TRUST_PROXY) */
  headers: Record<string, string> = {};
  /**
   * the Accept-Language sent; English by default, so the pages' `en` names of CONTRACT §11 apply (the
   * owner pages' own default is Danish, §18); null sends none
   */
  language: string | null = 'en';

  private allHeaders(): Record<string, string> {
    return this.language === null ? this.headers : { 'Accept-Language': this.language, ...this.headers };
  }

  constructor(private readonly app: TestApp) {}

  private remember(res: { headers: Record<string, unknown>; text?: string }): void {
    SEEN.bodies.push(res.text ?? '');
    if (typeof res.headers.location === 'string') SEEN.locations.push(res.headers.location);
    const set = res.headers['set-cookie'] as string[] | undefined;
    for (const c of set ?? []) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const m = /name="_csrf" value="([^"]+)"/.exec(res.text ?? '');
    if (m) this.lastCsrf = m[1];
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string) {
    const res = await this.app.partner().get(path).set(this.allHeaders()).set('Cookie', this.cookieHeader());
    this.remember(res as never);
    return res;
  }

  async post(path: string, form: Record<string, string | string[]>, options: { csrf?: string | null } = {}) {
    const body = new URLSearchParams();
    const csrf = options.csrf === undefined ? this.lastCsrf : options.csrf;
    if (csrf !== null) body.append('_csrf', csrf);
    for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    const res = await this.app.partner().post(path).set(this.allHeaders()).set('Cookie', this.cookieHeader()).type('form').send(body.toString());
    this.remember(res as never);
    return res;
  }
}

/** CONTRACT §18: a POST that succeeds answers 303 to a page; this follows it (a same-site Location) and answers that page, with the POST's status as `postStatus`. */
export async function postAndFollow(driver: PageDriver, path: string, form: Record<string, string | string[]>, options: { csrf?: string | null } = {}) {
  const posted = await driver.post(path, form, options);
  const location = posted.headers.location as string | undefined;
  if (posted.status !== 303 || !location?.startsWith('/')) return Object.assign(posted, { postStatus: posted.status, postLocation: location });
  // a browser keeps the fragment to itself: the request is for the path and query
  const page = await driver.get(location.split('#')[0]);
  return Object.assign(page, { postStatus: posted.status, postLocation: location });
}

/** The owner's current code; the clock moves one step first, so each sign-in has an unused step. */
export function nextCode(clock: ManualClock, s: ConsentSetup): string {
  clock.advance(30_000);
  return totpCodeAt(s.owner.totp_secret, clock.nowMs());
}

/**
 * The whole page flow over HTTP up to the redirect: authorize, sign in, (organization), consent,
 * decision. Returns the final 303 Location.
 */
export async function consentOverHttp(
  app: TestApp,
  clock: ManualClock,
  s: ConsentSetup,
  options: { challenge: string; accountIds?: string[]; mandate?: boolean; durationDays?: string; decision?: 'allow' | 'deny'; extra?: Record<string, string> },
): Promise<{ location: string; driver: PageDriver }> {
  const driver = new PageDriver(app);
  const page = await driver.get(`/oauth/authorize?${authorizeQuery(s, options.challenge, options.extra)}`);
  if (page.status !== 200) throw new Error(`authorize: ${page.status} ${page.headers.location ?? page.text}`);
  const posted = await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
  // CONTRACT §18: a successful sign-in answers 303 to the next page
  if (posted.status !== 303 || posted.headers.location !== '/oauth/authorize/continue') throw new Error(`sign-in: ${posted.status} ${posted.text}`);
  const signIn = await driver.get('/oauth/authorize/continue');
  if (signIn.status !== 200 || !signIn.text.includes('Allow access')) throw new Error(`sign-in: ${signIn.status} ${signIn.headers.location ?? signIn.text}`);
  const form: Record<string, string | string[]> = {
    decision: options.decision ?? 'allow',
    account_ids: options.accountIds ?? [s.organization.accounts[0].id],
    duration_days: options.durationDays ?? '90',
  };
  if (options.mandate) form.mandate = 'yes';
  const decision = await driver.post('/oauth/authorize/decision', form);
  if (decision.status !== 303) throw new Error(`decision: ${decision.status} ${decision.text}`);
  return { location: decision.headers.location as string, driver };
}

/** The token exchange of an authorization code the consent pages gave (RFC 6749 §4.1.3 with PKCE), as the app makes it. */
export function exchangeCode(app: TestApp, s: ConsentSetup, code: string, verifier: string, redirectUri = REDIRECT_URI) {
  return app
    .partner()
    .post('/oauth/token')
    .type('form')
    .send(
      new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: s.client.client_id,
        client_secret: s.client.client_secret,
      }).toString(),
    );
}

/**
 * CONTRACT §21: a publisher as owners see it — saved as the app's draft, then carried by a new revision
 * the operator approves (through the console API, as the operator does). Returns the revision's id.
 */
export async function anApprovedPublisher(
  app: TestApp,
  appId: string,
  publisher: { name?: string; website?: string; privacyPolicy?: string; cvr?: string },
): Promise<string> {
  await app.apps.partner.get(AppService).setPublisher(appId, { name: '', website: '', privacyPolicy: '', cvr: '', ...publisher });
  const revision = await ok<{ id: string }>(await consolePost(app, `/apps/${appId}/revisions`, {}), 201, 'revision');
  await ok(await consolePost(app, `/apps/${appId}/revisions/${revision.id}/approve`, {}), 200, 'approval');
  return revision.id;
}

/** How a sign-in form answered (CONTRACT §21): signed in, refused or locked (the words at the top of the form a refusal leads back to), or another status. */
export type SignInAnswer = 'signed in' | 'refused' | 'locked' | number;

/** The answer a refused sign-in's form shows at its top, by its words (English or Danish). */
function answerOfPage(status: number, text: string): SignInAnswer {
  const alert = /id="form-error"[^>]*>([^<]*)</.exec(text)?.[1];
  if (alert === undefined) return status === 200 ? 'signed in' : status;
  if (/Too many failed sign-ins|For mange mislykkede login/.test(alert)) return 'locked';
  if (/Sign-in failed|Du kunne ikke logges ind/.test(alert)) return 'refused';
  return status;
}

/**
 * A sign-in form posted as a browser does: a 303 is followed (CONTRACT §21: a refusal leads back to
 * the form, whose page says why), and the page is answered with its `answer`.
 */
export async function signInTry(driver: PageDriver, path: string, form: Record<string, string>) {
  const page = await postAndFollow(driver, path, form);
  return Object.assign(page, { answer: page.postStatus === 303 ? answerOfPage(page.status, page.text) : page.postStatus });
}

/** The answer of a sign-in POST sent beside others (a burst): its 303 followed with its own cookies, the driver left as it was. */
export async function answerOf(
  app: TestApp,
  driver: PageDriver,
  posted: { status: number; headers: Record<string, unknown> },
  headers: Record<string, string> = {},
): Promise<SignInAnswer> {
  if (posted.status !== 303) return posted.status;
  const cookies = new Map(driver.cookies);
  for (const c of (posted.headers['set-cookie'] as string[] | undefined) ?? []) {
    const pair = c.split(';')[0];
    cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  }
  const page = await app
    .partner()
    .get(String(posted.headers.location).split('#')[0])
    .set({ 'Accept-Language': 'en', ...headers })
    .set('Cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
  return answerOfPage(page.status, page.text);
}
