import { randomUUID } from 'node:crypto';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { aConsentSetup, authorizeQuery, type ConsentSetup, PageDriver, pkcePair, postAndFollow } from '../support/consent-fixtures';
import { aProductionOrganization, consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

/**
 * CONTRACT §10: a password given at enrolment for an existing user without one sets it, and for one
 * with a password is 409 (never silently dropped); `POST /console/v1/users/{user_id}/password` sets or
 * replaces it and ends the owner's consent sessions. Judged by signing in on the consent page (§11).
 */
describe('owner passwords (CONTRACT §10)', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  let app: TestApp;
  let setup: ConsentSetup;

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
    setup = await aConsentSetup(app);
  });
  afterAll(() => app.close());

  /** Signs in on the consent page of `setup`'s app; the driver holds the session when it worked. */
  async function signIn(email: string, password: string, totpSecret: string): Promise<{ signedIn: boolean; driver: PageDriver }> {
    const driver = new PageDriver(app);
    const page = await driver.get(`/oauth/authorize?${authorizeQuery(setup, pkcePair().challenge)}`);
    expect(page.status).toBe(200);
    clock.advance(30_000); // a fresh, unused step for each sign-in
    // CONTRACT §18: a sign-in that succeeds answers 303 to the next page
    const res = await postAndFollow(driver, '/oauth/authorize/sign-in', { email, password, code: totpCodeAt(totpSecret, clock.nowMs()) });
    // signed in: the consent form, or first the organization choice of an owner of several
    return {
      signedIn: res.postStatus === 303 && res.status === 200 && /Allow access|Organization/.test(res.text) && !res.text.includes('Sign-in failed'),
      driver,
    };
  }

  /** A new owner of setup's organization enrolled without a password. */
  async function anOwnerWithoutPassword(): Promise<{ email: string; user_id: string; totp_secret: string }> {
    const email = `ejer-${randomUUID()}@bageriet.dk`;
    const res = await consolePost(app, `/organizations/${setup.organization.id}/owners`, { email });
    expect(res.status).toBe(201);
    return { email, ...res.body };
  }

  it('enrolling an existing user without a password with one sets it: the owner can then sign in', async () => {
    const owner = await anOwnerWithoutPassword();
    expect((await signIn(owner.email, 'en lang og hemmelig sætning', owner.totp_secret)).signedIn).toBe(false);
    const other = await aProductionOrganization(app, { accounts: 1 });
    const again = await consolePost(app, `/organizations/${other.id}/owners`, { email: owner.email.toUpperCase(), password: 'en lang og hemmelig sætning' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ user_id: owner.user_id, totp_secret: null });
    expect((await signIn(owner.email, 'en lang og hemmelig sætning', owner.totp_secret)).signedIn).toBe(true);
  });

  it('a password for a user that has one is 409 resource_conflict, writes nothing, and the old password stays', async () => {
    const owner = await anOwnerWithoutPassword();
    expect(
      (await consolePost(app, `/organizations/${setup.organization.id}/owners`, { email: owner.email, password: 'den første lange sætning' })).status,
    ).toBe(201);
    const other = await aProductionOrganization(app, { accounts: 1 });
    const res = await consolePost(app, `/organizations/${other.id}/owners`, { email: owner.email, password: 'en anden lang sætning' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('resource_conflict');
    expect(JSON.stringify(res.body)).not.toContain('sætning');
    // nothing of the refused call: not an owner of the other organization
    const read = await app.console().get(`/console/v1/organizations/${other.id}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(read.body.owners).toEqual([]);
    expect((await signIn(owner.email, 'en anden lang sætning', owner.totp_secret)).signedIn).toBe(false);
    expect((await signIn(owner.email, 'den første lange sætning', owner.totp_secret)).signedIn).toBe(true);
    // without a password the same enrolment is still fine (the user becomes an owner there too)
    expect((await consolePost(app, `/organizations/${other.id}/owners`, { email: owner.email })).status).toBe(201);
  });

  it('POST /users/{id}/password sets or replaces it (200), and ends the sessions signed in with the old one', async () => {
    const owner = await anOwnerWithoutPassword();
    const set = await consolePost(app, `/users/${owner.user_id}/password`, { password: 'første adgangskode her' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ user_id: owner.user_id, password_set: true });
    const session = await signIn(owner.email, 'første adgangskode her', owner.totp_secret);
    expect(session.signedIn).toBe(true);

    const replaced = await consolePost(app, `/users/${owner.user_id.toUpperCase()}/password`, { password: 'anden adgangskode her' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ user_id: owner.user_id, password_set: true });
    // the signed-in session has ended: its consent form no longer creates a grant
    const decision = await session.driver.post('/oauth/authorize/decision', {
      decision: 'allow',
      account_ids: [setup.organization.accounts[0].id],
      duration_days: '90',
    });
    expect(decision.status).not.toBe(303);
    const grants = await app.console().get(`/console/v1/organizations/${setup.organization.id}/grants`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(grants.body).toEqual([]);

    expect((await signIn(owner.email, 'første adgangskode her', owner.totp_secret)).signedIn).toBe(false);
    expect((await signIn(owner.email, 'anden adgangskode her', owner.totp_secret)).signedIn).toBe(true);
  });

  it('refuses an unknown user (404), a password outside 12–128 characters (400 at /password), a missing key (401)', async () => {
    const unknown = await consolePost(app, `/users/${randomUUID()}/password`, { password: 'en lang og hemmelig sætning' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect((await consolePost(app, '/users/not-a-uuid/password', { password: 'en lang og hemmelig sætning' })).status).toBe(404);
    for (const password of ['for kort', 'x'.repeat(129), null, 123456789012]) {
      const res = await consolePost(app, `/users/${setup.owner.user_id}/password`, { password });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/password']);
    }
    const extra = await consolePost(app, `/users/${setup.owner.user_id}/password`, { password: 'en lang og hemmelig sætning', email: 'x@y.dk' });
    expect(extra.status).toBe(400);
    const noKey = await app.console().post(`/console/v1/users/${setup.owner.user_id}/password`).send({ password: 'en lang og hemmelig sætning' });
    expect(noKey.status).toBe(401);
  });
});
