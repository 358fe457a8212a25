import { randomUUID } from 'node:crypto';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { DEVELOPER_QUOTAS } from '../../src/modules/developers/domain/developer-quotas';
import { DeveloperPurge } from '../../src/modules/developers/infrastructure/developer-purge';
import { captureLog } from '../support/browser';
import { PageDriver, postAndFollow, type SignInAnswer, signInTry } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, DEV_PASSWORD, signUpByEmail } from '../support/developer-fixtures';
import { aJournal, SANDBOX } from '../support/fixtures';
import { ManualClock } from '../support/production-fixtures';
import { SmtpInbox, signupLinkIn } from '../support/smtp-inbox';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const KEY = `Bearer ${TEST_CONSOLE_KEY}`;

/** Page text without the per-response CSRF tokens and cookies' values, to compare two answers. */
const sameShape = (html: string) => html.replace(/value="[^"]*"/g, '');
/** The enrolment page's secret, shown in groups of four (CONTRACT §18). */
const secretOn = (html: string) => (/id="totp-secret">([A-Z2-7 ]+)</.exec(html)?.[1] as string).replace(/ /g, '');

/** The email's link as a browser follows it: 303 to the enrolment page (CONTRACT §18), which the driver then opens. */
async function openLink(driver: PageDriver, link: string) {
  const opened = await driver.get(link);
  expect([opened.status, opened.headers.location]).toEqual([303, '/developers/signup/confirm']);
  return driver.get('/developers/signup/confirm');
}

/**
 * Issue 35, findings 3–5: developers' accounts as strong as owners' — the per-account code lockout,
 * proof of the email before an account exists (through a real SMTP server on 127.0.0.1), quotas per
 * developer, and the operator's way in while sign-up is closed.
 */
describe('developer accounts as strong as owners (issue 35)', () => {
  let app: TestApp;
  let inbox: SmtpInbox;
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 9, 0, 10));
  const count = async (sql: string, params: unknown[]) => Number((await app.apps.dataSource.query(sql, params))[0].n);
  const developersWith = (email: string) => count(`SELECT count(*) AS n FROM developers WHERE lower(email) = lower($1)`, [email]);

  beforeAll(async () => {
    inbox = await new SmtpInbox().start();
    // the peer is 127.0.0.1 (loopback): X-Forwarded-For names the client
    app = await createTestApp({ trustProxy: 'loopback', smtpUrl: inbox.url }, { clock });
  });
  afterAll(async () => {
    await app.close();
    await inbox.stop();
  });

  /** A page driver from its own client address. */
  const from = (address: string) => {
    const d = new PageDriver(app);
    d.headers = { 'X-Forwarded-For': address };
    return d;
  };

  describe('finding 3: the per-account code lockout', () => {
    it('refuses the right code from a 21st address after 20 addresses × 6 wrong codes with the right password, until 15 minutes have passed', async () => {
      const d = await aDeveloper(app, clock);
      clock.advance(30_000);
      const wrong = String((Number(totpCodeAt(d.secret, clock.nowMs())) + 1) % 1_000_000).padStart(6, '0');
      const statuses: SignInAnswer[] = [];
      // 20 addresses at once, 6 tries each (sequential per address: its lockout counts them in order)
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const stranger = from(`198.51.100.${i + 1}`);
          await stranger.get('/developers/signin');
          for (let k = 0; k < 6; k++) {
            statuses.push((await signInTry(stranger, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: wrong })).answer);
          }
        }),
      );
      expect(statuses).toHaveLength(120);
      expect(statuses.every((s) => s === 'refused' || s === 'locked')).toBe(true);
      const owner = from('192.0.2.21');
      await owner.get('/developers/signin');
      const right = await signInTry(owner, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
      expect(right.answer).toBe('refused');
      expect(right.text).toContain('Sign-in failed');
      expect(right.postLocation).toBe('/developers/signin');
      expect((await owner.get('/developers/apps')).status).toBe(303); // not signed in
      // the lockout is the account's, not the address's: it ends after 15 minutes
      clock.advance(15 * 60_000 + 30_000);
      const later = from('192.0.2.22');
      await later.get('/developers/signin');
      const ok = await later.post('/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
      expect(ok.status).toBe(303);
    }, 180_000);

    it('answers a locked account as any wrong factor: the same page for the right and a wrong password', async () => {
      const d = await aDeveloper(app, clock);
      for (let i = 0; i < 5; i++) {
        const s = from(`203.0.113.${i + 1}`);
        await s.get('/developers/signin');
        expect((await signInTry(s, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: '000000' })).answer).toBe('refused');
      }
      clock.advance(30_000);
      const a = from('203.0.113.50');
      await a.get('/developers/signin');
      const rightPassword = await signInTry(a, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
      const b = from('203.0.113.51');
      await b.get('/developers/signin');
      const wrongPassword = await signInTry(b, '/developers/signin', {
        email: d.email,
        password: 'not the password at all',
        code: totpCodeAt(d.secret, clock.nowMs()),
      });
      expect(rightPassword.answer).toBe('refused');
      expect(wrongPassword.answer).toBe('refused');
      expect(sameShape(rightPassword.text)).toBe(sameShape(wrongPassword.text));
      clock.advance(16 * 60_000);
    });

    it('counts sign-in failures from one IPv6 /64 as one client: the 6th address of the /64 is refused', async () => {
      const d = await aDeveloper(app, clock);
      for (let i = 1; i <= 5; i++) {
        const s = from(`2001:db8:35:1::${i.toString(16)}`);
        await s.get('/developers/signin');
        expect((await signInTry(s, '/developers/signin', { email: d.email, password: 'not the password at all', code: '000000' })).answer).toBe('refused');
      }
      clock.advance(30_000);
      const sixth = from('2001:db8:35:1:ffff::6');
      await sixth.get('/developers/signin');
      const locked = await signInTry(sixth, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
      expect(locked.answer).toBe('locked');
      // another /64 is another client
      const neighbour = from('2001:db8:35:2::1');
      await neighbour.get('/developers/signin');
      expect((await neighbour.post('/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) })).status).toBe(
        303,
      );
    });
  });

  describe('finding 4: proof of the email before an account exists', () => {
    it('sends a link by SMTP; the account exists only once the link is followed and the code confirmed; the link then works no more', async () => {
      const email = `proof-${randomUUID()}@example.dk`;
      const driver = from('192.0.2.101');
      await driver.get('/developers/signup');
      const sent = await driver.post('/developers/signup', { email });
      expect(sent.status).toBe(303);
      expect(sent.headers.location).toBe('/developers/signup/sent');
      expect((await driver.get('/developers/signup/sent')).text).toContain('Check your email');
      expect((await driver.get('/developers/signup/sent?lang=da')).text).toContain('Tjek din e-mail');
      await driver.get('/developers/signup/sent?lang=en');
      const mail = await inbox.nth(email);
      expect(mail.subject).toContain('Confirm your Partner API developer account');
      const link = signupLinkIn(mail) as string;
      expect(link).not.toBeNull();
      expect(mail.text).toContain(`http://localhost:3000${link}`);
      expect(await developersWith(email)).toBe(0);
      // the token is stored as its hash only
      const token = new URL(link, 'http://x').searchParams.get('token') as string;
      expect(await count(`SELECT count(*) AS n FROM developer_signups WHERE token_hash = $1`, [token])).toBe(0);
      // following the link (a mail scanner too) uses nothing up
      const scanner = from('192.0.2.102');
      expect((await openLink(scanner, link)).status).toBe(200);
      const enrol = await openLink(driver, link);
      expect(enrol.status).toBe(200);
      expect(enrol.text).toContain('Set up your authenticator');
      expect(await developersWith(email)).toBe(0);
      const secret = secretOn(enrol.text);
      clock.advance(30_000);
      const confirmed = await driver.post('/developers/signup/confirm', { password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.location).toBe('/developers/apps');
      expect((await driver.get('/developers/apps')).status).toBe(200);
      expect(await developersWith(email)).toBe(1);
      // single use: the link and the scanner's enrolment from it work no more
      expect((await from('192.0.2.103').get(link)).status).toBe(404);
      clock.advance(30_000);
      const replay = await scanner.post('/developers/signup/confirm', { password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) });
      expect(replay.status).toBe(422);
      expect(await developersWith(email)).toBe(1);
    });

    it('answers an email that has an account as a new one (the form, the page after it, the email sent) and makes no second account', async () => {
      const d = await aDeveloper(app, clock);
      const fresh = `fresh-${randomUUID()}@example.dk`;
      const answers = [];
      for (const email of [d.email, fresh]) {
        const driver = from('192.0.2.110');
        await driver.get('/developers/signup');
        const res = await driver.post('/developers/signup', { email });
        answers.push({ status: res.status, location: res.headers.location, page: sameShape((await driver.get(res.headers.location as string)).text) });
      }
      expect(answers[0]).toEqual(answers[1]);
      const notice = await inbox.nth(d.email);
      expect(signupLinkIn(notice)).toBeNull();
      expect(notice.text).toContain('/developers/signin');
      expect(signupLinkIn(await inbox.nth(fresh))).not.toBeNull();
      expect(await developersWith(d.email)).toBe(1);
    });

    it('lets a link expire after 24 hours, and answers an unknown token as an expired one', async () => {
      const email = `late-${randomUUID()}@example.dk`;
      const driver = from('192.0.2.120');
      await driver.get('/developers/signup');
      await driver.post('/developers/signup', { email });
      const link = signupLinkIn(await inbox.nth(email)) as string;
      clock.advance(24 * 3600_000 + 1_000);
      const late = await driver.get(link);
      expect(late.status).toBe(404);
      expect(late.text).toContain('This link does not work');
      // the token proves the email: not even the language switch repeats it
      expect(late.text).not.toContain(new URL(link, 'http://x').searchParams.get('token') as string);
      expect(late.text).toContain('href="/developers/signup/verify?lang=da"');
      const unknown = await driver.get(`/developers/signup/verify?token=${'A'.repeat(43)}`);
      expect(unknown.status).toBe(404);
      expect(sameShape(unknown.text)).toBe(sameShape(late.text));
      expect(await developersWith(email)).toBe(0);
    });

    it('signs up end to end through the email (the fixture other suites can use)', async () => {
      const d = await signUpByEmail(app, clock, inbox);
      expect((await d.driver.get('/developers/apps')).status).toBe(200);
    });
  });

  describe('issue 43 finding 6: the password is chosen by whoever follows the link (CONTRACT §20)', () => {
    const ATTACKER_PASSWORD = 'angriberens kodeord 1234';

    it("Create account asks for the email only; the link's page asks for the password (12–128) and the code, keeping the secret on a refusal", async () => {
      const email = `fields-${randomUUID()}@example.dk`;
      const driver = from('192.0.2.140');
      const form = await driver.get('/developers/signup');
      expect(form.text).toContain('name="email"');
      expect(form.text).not.toContain('type="password"');
      expect((await driver.post('/developers/signup', { email })).status).toBe(303);
      const enrol = await openLink(driver, signupLinkIn(await inbox.nth(email)) as string);
      expect(enrol.text).toMatch(/<input id="password" name="password" type="password" autocomplete="new-password"/);
      const secret = secretOn(enrol.text);
      clock.advance(30_000);
      const short = await driver.post('/developers/signup/confirm', { password: 'elleve tegn', code: totpCodeAt(secret, clock.nowMs()) });
      expect(short.status).toBe(422);
      expect(short.text).toContain('id="password-error"');
      expect(short.text).not.toContain('id="code-error"');
      expect(secretOn(short.text)).toBe(secret);
      expect(await developersWith(email)).toBe(0);
      const none = await driver.post('/developers/signup/confirm', { code: totpCodeAt(secret, clock.nowMs()) });
      expect(none.status).toBe(422);
      expect(none.text).toContain('id="password-error"');
      const wrongCode = await driver.post('/developers/signup/confirm', { password: DEV_PASSWORD, code: '000000' });
      expect(wrongCode.status).toBe(422);
      expect([wrongCode.text.includes('id="code-error"'), wrongCode.text.includes('id="password-error"')]).toEqual([true, false]);
      expect(await developersWith(email)).toBe(0);
      expect((await driver.post('/developers/signup/confirm', { password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) })).status).toBe(303);
      expect(await developersWith(email)).toBe(1);
    });

    it(`the attack: a stranger signs up the victim's email with a password, fills the ${DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour}-per-hour quota; the victim confirms the stranger's link with their own password and authenticator; the stranger's password opens nothing`, async () => {
      const victim = `victim-${randomUUID()}@example.dk`;
      const attacker = from('192.0.2.150');
      await attacker.get('/developers/signup');
      // the attacker posts a password too (a form field the page no longer has): it is not taken
      expect((await attacker.post('/developers/signup', { email: victim, password: ATTACKER_PASSWORD })).status).toBe(303);
      const victimDriver = from('192.0.2.151');
      await victimDriver.get('/developers/signup');
      expect((await victimDriver.post('/developers/signup', { email: victim })).status).toBe(303);
      for (let i = 2; i < DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour; i++) {
        await attacker.get('/developers/signup');
        expect((await attacker.post('/developers/signup', { email: victim, password: ATTACKER_PASSWORD })).status).toBe(303);
      }
      await attacker.get('/developers/signup');
      expect((await attacker.post('/developers/signup', { email: victim, password: ATTACKER_PASSWORD })).status).toBe(429);
      // the victim opens the first email: the link the attacker started
      const first = signupLinkIn(await inbox.nth(victim, 1)) as string;
      const enrol = await openLink(victimDriver, first);
      expect(enrol.status).toBe(200);
      const secret = secretOn(enrol.text);
      clock.advance(30_000);
      const confirmed = await victimDriver.post('/developers/signup/confirm', { password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) });
      expect([confirmed.status, confirmed.headers.location]).toEqual([303, '/developers/apps']);
      expect(await developersWith(victim)).toBe(1);
      // the attacker, who also has the code (say, a shoulder-surfed one), gets nowhere with their password
      clock.advance(30_000);
      const stranger = from('192.0.2.152');
      await stranger.get('/developers/signin');
      expect(
        (await signInTry(stranger, '/developers/signin', { email: victim, password: ATTACKER_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) })).answer,
      ).toBe('refused');
      const owner = from('192.0.2.153');
      await owner.get('/developers/signin');
      expect((await owner.post('/developers/signin', { email: victim, password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) })).status).toBe(303);
    });
  });

  describe('finding 5: quotas per developer and per sign-up', () => {
    it(`sends at most ${DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour} sign-up emails to one address within the hour (429 with Retry-After), then again`, async () => {
      const email = `resend-${randomUUID()}@example.dk`;
      const driver = from('192.0.2.130');
      await driver.get('/developers/signup');
      for (let i = 0; i < DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour; i++) {
        expect((await driver.post('/developers/signup', { email })).status).toBe(303);
        await driver.get('/developers/signup');
      }
      const refused = await driver.post('/developers/signup', { email });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
      expect(refused.text).toContain('within the hour');
      expect(inbox.to(email)).toHaveLength(DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour);
      clock.advance(3600_000 + 1_000);
      await driver.get('/developers/signup');
      expect((await driver.post('/developers/signup', { email })).status).toBe(303);
    });

    it(`takes at most ${DEVELOPER_QUOTAS.signupEmailsPerClientPerHour} sign-ups from one client (an IPv6 /64) within the hour: bulk accounts from one client are bounded`, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < DEVELOPER_QUOTAS.signupEmailsPerClientPerHour + 2; i++) {
        const driver = from(`2001:db8:77:1::${(i + 1).toString(16)}`);
        await driver.get('/developers/signup');
        statuses.push((await driver.post('/developers/signup', { email: `bulk-${i}-${randomUUID()}@example.dk` })).status);
      }
      expect(statuses).toEqual([...Array(DEVELOPER_QUOTAS.signupEmailsPerClientPerHour).fill(303), 429, 429]);
      const elsewhere = from('192.0.2.140');
      await elsewhere.get('/developers/signup');
      expect((await elsewhere.post('/developers/signup', { email: `other-${randomUUID()}@example.dk` })).status).toBe(303);
      clock.advance(3600_000 + 1_000);
    });

    it(`makes at most ${DEVELOPER_QUOTAS.sandboxTokensPerHour} sandbox tokens per developer within the hour, over all apps (429 page), then again`, async () => {
      const d = await aDeveloper(app, clock);
      const first = await anAppOnThePage(d, 'Første');
      const second = await anAppOnThePage(d, 'Anden');
      await d.driver.get(`/developers/apps/${first}`);
      for (let i = 0; i < DEVELOPER_QUOTAS.sandboxTokensPerHour; i++) {
        const res = await d.driver.post(`/developers/apps/${i % 2 === 0 ? first : second}/sandbox-token`, {});
        expect(res.status).toBe(303);
      }
      const refused = await d.driver.post(`/developers/apps/${second}/sandbox-token`, {});
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.text).toContain('sandbox tokens within the hour');
      expect(refused.text).not.toContain('id="issued-value"');
      // another developer is not held up
      const other = await aDeveloper(app, clock);
      const hers = await anAppOnThePage(other);
      await other.driver.get(`/developers/apps/${hers}`);
      expect((await other.driver.post(`/developers/apps/${hers}/sandbox-token`, {})).status).toBe(303);
      // an hour on (the session kept alive: it ends after 30 minutes idle), the first tokens have left the hour
      for (let i = 0; i < 3; i++) {
        clock.advance(20 * 60_000 + 1_000);
        await d.driver.get(`/developers/apps/${first}`);
      }
      expect((await d.driver.post(`/developers/apps/${first}/sandbox-token`, {})).status).toBe(303);
    });

    it(`counts in the database: 12 concurrent sign-ups for one email send ${DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour} emails, 30 concurrent sandbox tokens make ${DEVELOPER_QUOTAS.sandboxTokensPerHour}`, async () => {
      const email = `race-${randomUUID()}@example.dk`;
      const drivers = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const driver = from(`192.0.2.${150 + i}`);
          await driver.get('/developers/signup');
          return driver;
        }),
      );
      const signups = await Promise.all(drivers.map((driver) => driver.post('/developers/signup', { email })));
      expect(signups.filter((r) => r.status === 303)).toHaveLength(DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour);
      expect(signups.filter((r) => r.status === 429)).toHaveLength(12 - DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour);
      await inbox.nth(email, DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour);
      expect(inbox.to(email)).toHaveLength(DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour);

      const d = await aDeveloper(app, clock);
      const id = await anAppOnThePage(d);
      await d.driver.get(`/developers/apps/${id}`);
      const tokens = await Promise.all(Array.from({ length: 30 }, () => d.driver.post(`/developers/apps/${id}/sandbox-token`, {})));
      expect(tokens.filter((r) => r.status === 303)).toHaveLength(DEVELOPER_QUOTAS.sandboxTokensPerHour);
      expect(tokens.filter((r) => r.status === 429)).toHaveLength(30 - DEVELOPER_QUOTAS.sandboxTokensPerHour);
      clock.advance(3600_000 + 1_000);
    }, 180_000);

    it("answers a NUL byte in the sign-up or sign-in email with the page kernel's 400 page, never a 500", async () => {
      const driver = from('192.0.2.170');
      await driver.get('/developers/signup');
      // the page kernel refuses a control character in any form field before the form is read (issue 35, finding 8)
      const signup = await driver.post('/developers/signup', { email: 'nul\u0000@example.dk' });
      expect(signup.status).toBe(400);
      expect(signup.text).toContain('control character');
      await driver.get('/developers/signin');
      const signin = await driver.post('/developers/signin', { email: 'nul\u0000@example.dk', password: DEV_PASSWORD, code: '123456' });
      expect(signin.status).toBe(400);
      expect(signin.text).toContain('control character');
    });

    it('refuses a second revision while one waits for review (422 page, nothing made), and takes the next once it is approved', async () => {
      const d = await aDeveloper(app, clock);
      const id = await anAppOnThePage(d);
      await d.driver.get(`/developers/apps/${id}`);
      expect((await d.driver.post(`/developers/apps/${id}/revisions`, {})).status).toBe(303);
      await d.driver.get(`/developers/apps/${id}`);
      const refused = await d.driver.post(`/developers/apps/${id}/revisions`, {});
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('waiting for review');
      const read = await app.console().get(`/console/v1/apps/${id}`).set('Authorization', KEY);
      expect(read.body.revisions).toHaveLength(1);
      const approve = await app.console().post(`/console/v1/apps/${id}/revisions/${read.body.revisions[0].id}/approve`).set('Authorization', KEY).send({});
      expect(approve.status).toBe(200);
      await d.driver.get(`/developers/apps/${id}`);
      expect((await d.driver.post(`/developers/apps/${id}/revisions`, {})).status).toBe(303);
      expect((await app.console().get(`/console/v1/apps/${id}`).set('Authorization', KEY)).body.revisions).toHaveLength(2);
    });

    it('takes at most 60 deliveries by hand (Resend, Send test event, Recover) per developer within the hour, over all apps (429 page), then again', async () => {
      const d = await aDeveloper(app, clock);
      const first = await anAppOnThePage(d, 'Første');
      const second = await anAppOnThePage(d, 'Anden');
      const endpointOf = async (appId: string) => {
        await d.driver.get(`/developers/apps/${appId}`);
        expect(
          (await d.driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url: `http://127.0.0.1:9/resends-${appId}`, environment: 'sandbox' })).status,
        ).toBe(303);
        return /name="endpoint_id" value="([0-9a-f-]{36})"/.exec((await d.driver.get(`/developers/apps/${appId}`)).text)?.[1] as string;
      };
      const endpoints = { [first]: await endpointOf(first), [second]: await endpointOf(second) };
      const test = (appId: string) => d.driver.post(`/developers/apps/${appId}/webhook-endpoints/test`, { endpoint_id: endpoints[appId] });
      const recover = (appId: string) =>
        d.driver.post(`/developers/apps/${appId}/webhook-endpoints/recover`, {
          endpoint_id: endpoints[appId],
          since: new Date(clock.nowMs() - 60_000).toISOString(),
        });
      // one test event per app (2), its delivery resent 57 times over both apps, one recovery: 60 deliveries by hand
      expect([(await test(first)).status, (await test(second)).status]).toEqual([303, 303]);
      const eventOf = async (appId: string) =>
        /name="event_id" value="([0-9a-f-]{36})"/.exec((await d.driver.get(`/developers/apps/${appId}`)).text)?.[1] as string;
      const events = { [first]: await eventOf(first), [second]: await eventOf(second) };
      const resend = (appId: string) =>
        d.driver.post(`/developers/apps/${appId}/deliveries/resend`, { event_id: events[appId], endpoint_id: endpoints[appId] });
      const statuses: number[] = [];
      for (let i = 0; i < 57; i++) statuses.push((await resend(i % 2 === 0 ? first : second)).status);
      expect(statuses.filter((s) => s !== 303)).toEqual([]);
      expect((await recover(first)).status).toBe(303);
      // the 61st, whichever tool and app: refused, with the reason on the page and the time to wait
      const refused = await resend(second);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.text).toContain('You made 60 deliveries by hand (Resend, Send test event, Recover) within the hour');
      expect(refused.text).toContain('id="resends-error"');
      expect([(await test(first)).status, (await recover(second)).status]).toEqual([429, 429]);
      // another developer is not held up
      const other = await aDeveloper(app, clock);
      const hers = await anAppOnThePage(other);
      await other.driver.get(`/developers/apps/${hers}`);
      expect((await other.driver.post(`/developers/apps/${hers}/webhook-endpoints`, { url: 'http://127.0.0.1:9/hers', environment: 'sandbox' })).status).toBe(
        303,
      );
      const herEndpoint = /name="endpoint_id" value="([0-9a-f-]{36})"/.exec((await other.driver.get(`/developers/apps/${hers}`)).text)?.[1] as string;
      expect((await other.driver.post(`/developers/apps/${hers}/webhook-endpoints/test`, { endpoint_id: herEndpoint })).status).toBe(303);
      // an hour on (the session kept alive: it ends after 30 minutes idle), the first uses have left the hour
      for (let i = 0; i < 3; i++) {
        clock.advance(20 * 60_000 + 1_000);
        await d.driver.get(`/developers/apps/${first}`);
      }
      expect((await resend(first)).status).toBe(303);
    }, 180_000);
  });
});

describe('sign-up without SMTP_URL: the link is in the log (issue 35)', () => {
  it('writes the confirmation link to the log at warn, and it works', async () => {
    const lines: string[] = [];
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 11, 0, 10));
    const app = await createTestApp({ logLevel: 'warn' }, { clock, logStream: captureLog(lines) });
    try {
      // the start log says what is off
      expect(lines.some((l) => l.includes('SMTP_URL is not set: developer sign-up sends no email'))).toBe(true);
      const email = `nosmtp-${randomUUID()}@example.dk`;
      const driver = new PageDriver(app);
      // CONTRACT §2: the sign-up pages say where the link is (the log), never "check your email"
      const form = await driver.get('/developers/signup');
      expect(form.text).toContain('the link to confirm the address is written to the service’s log');
      expect((await driver.post('/developers/signup', { email })).status).toBe(303);
      for (const [lang, where, never] of [
        ['en', 'Your link is in the service’s log', /check your email|we sent an email/i],
        ['da', 'Dit link står i tjenestens log', /tjek din e-mail|vi har sendt/i],
      ] as const) {
        const sent = await driver.get(`/developers/signup/sent?lang=${lang}`);
        expect(sent.status).toBe(200);
        expect(sent.text).toContain(where);
        expect(sent.text).not.toMatch(never);
      }
      await driver.get('/developers/signup/sent?lang=en');
      const line = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.includes(email));
      expect(line?.level).toBe(40);
      const link = /(\/developers\/signup\/verify\?token=[A-Za-z0-9_-]+)/.exec(line?.msg ?? '')?.[1] as string;
      expect(link).toBeDefined();
      // never the password
      expect(lines.join('\n')).not.toContain(DEV_PASSWORD);
      const enrol = await openLink(driver, link);
      expect(enrol.status).toBe(200);
      const secret = secretOn(enrol.text);
      clock.advance(30_000);
      expect((await driver.post('/developers/signup/confirm', { password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) })).status).toBe(303);
      // over the hourly quota too, the form points at the log, not at an inbox
      const again = new PageDriver(app);
      const other = `nosmtp-quota-${randomUUID()}@example.dk`;
      for (let i = 0; i < DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour; i++) {
        await again.get('/developers/signup');
        expect((await again.post('/developers/signup', { email: other })).status).toBe(303);
      }
      await again.get('/developers/signup');
      const refused = await again.post('/developers/signup', { email: other });
      expect(refused.status).toBe(429);
      expect(refused.text).toContain(
        `${DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour} links for this address were written to the service’s log within the hour`,
      );
      expect(refused.text).not.toMatch(/inbox|we sent/i);
    } finally {
      await app.close();
    }
  });
});

describe('the operator creates developers (POST /console/v1/developers, issue 35)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({ developerSignup: 'closed' }, { clock });
  });
  afterAll(() => app.close());

  it('makes a developer while sign-up is closed, who signs in with the TOTP secret answered once', async () => {
    const email = `operator-made-${randomUUID()}@example.dk`;
    const res = await app.console().post('/console/v1/developers').set('Authorization', KEY).send({ email, password: DEV_PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe(email);
    expect(res.body.totp_secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(res.body.totp_uri).toContain(`secret=${res.body.totp_secret}`);
    // the issuer authenticator apps show is the service (SERVICE_NAME, "Partner API" by default), the account the email
    expect(res.body.totp_uri).toMatch(/^otpauth:\/\/totp\/Partner%20API:[^?]+%40[^?]+\?issuer=Partner%20API&/);
    expect((await app.partner().get('/developers/signup')).status).toBe(404);
    const driver = new PageDriver(app);
    await driver.get('/developers/signin');
    clock.advance(30_000);
    const signedIn = await driver.post('/developers/signin', { email, password: DEV_PASSWORD, code: totpCodeAt(res.body.totp_secret, clock.nowMs()) });
    expect(signedIn.status).toBe(303);
    expect((await driver.get('/developers/apps')).status).toBe(200);
  });

  it('answers 409 for an email that has an account (any case), and 400 for a bad email or password', async () => {
    const email = `twice-${randomUUID()}@example.dk`;
    expect((await app.console().post('/console/v1/developers').set('Authorization', KEY).send({ email, password: DEV_PASSWORD })).status).toBe(201);
    const again = await app.console().post('/console/v1/developers').set('Authorization', KEY).send({ email: email.toUpperCase(), password: DEV_PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('resource_conflict');
    const short = await app
      .console()
      .post('/console/v1/developers')
      .set('Authorization', KEY)
      .send({ email: `x-${randomUUID()}@example.dk`, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/password']);
    const bad = await app.console().post('/console/v1/developers').set('Authorization', KEY).send({ email: 'not-an-email', password: DEV_PASSWORD });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/email']);
    expect((await app.console().post('/console/v1/developers').set('Authorization', 'Bearer wrong').send({ email, password: DEV_PASSWORD })).status).toBe(401);
  });
});

describe('the purge of unconfirmed sign-ups and of developers gone 90 days (issue 35)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 13, 0, 10));
  const n = async (sql: string, params: unknown[]) => Number((await app.apps.dataSource.query(sql, params))[0].n);
  const issued = (html: string) => /id="issued-value">([^<]+)</.exec(html)?.[1] as string;
  const accountIds = (html: string) => {
    const section = html.slice(html.indexOf('id="sandbox"'), html.indexOf('id="oauth"'));
    return [...section.matchAll(/data-label="Account id"><code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
  };

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  it('deletes sign-ups whose link expired, and developers with no sign-in for 90 days and nothing in production, with their apps and sandbox organizations', async () => {
    const purge = () => app.apps.partner.get(DeveloperPurge, { strict: false }).purge();
    // a developer who used the sandbox: two apps, sandbox entries, a product, a webhook endpoint
    const gone = await aDeveloper(app, clock);
    const goneApps = [await anAppOnThePage(gone, 'Glemt'), await anAppOnThePage(gone, 'Også glemt')];
    const page = (await gone.driver.get(`/developers/apps/${goneApps[0]}`)).text;
    const token = issued((await postAndFollow(gone.driver, `/developers/apps/${goneApps[0]}/sandbox-token`, {})).text);
    expect(
      (await postAndFollow(gone.driver, `/developers/apps/${goneApps[0]}/webhook-endpoints`, { url: 'http://127.0.0.1:9/hook', environment: 'sandbox' }))
        .postStatus,
    ).toBe(303);
    const posted = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(accountIds(page)));
    expect(posted.status).toBe(201);
    const attached = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${posted.body.id}/attachments`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from('%PDF-1.4\n% bilag\n%%EOF\n'));
    expect(attached.status).toBe(201);
    const product = await app
      .partner()
      .post(`${SANDBOX}/products`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send({ code: 'KAFFE', name: 'Kaffe' });
    expect(product.status).toBe(201);
    const [{ organization_id: goneOrg }] = await app.apps.dataSource.query(
      `SELECT sandbox_organization_id AS organization_id FROM developer_apps WHERE app_id = $1`,
      [goneApps[0]],
    );
    // a developer whose app is approved: in production, kept however long away
    const approved = await aDeveloper(app, clock);
    const approvedApp = await anAppOnThePage(approved, 'I produktion');
    await approved.driver.get(`/developers/apps/${approvedApp}`);
    await approved.driver.post(`/developers/apps/${approvedApp}/revisions`, {});
    const revision = (await app.console().get(`/console/v1/apps/${approvedApp}`).set('Authorization', KEY)).body.revisions[0].id;
    expect((await app.console().post(`/console/v1/apps/${approvedApp}/revisions/${revision}/approve`).set('Authorization', KEY).send({})).status).toBe(200);
    // a developer who comes back: kept
    const back = await aDeveloper(app, clock);
    await anAppOnThePage(back, 'Tilbage');
    // a sign-up never confirmed (its link is only in the log here: no SMTP_URL)
    const unconfirmed = `never-${randomUUID()}@example.dk`;
    const driver = new PageDriver(app);
    await driver.get('/developers/signup');
    expect((await driver.post('/developers/signup', { email: unconfirmed })).status).toBe(303);

    clock.advance(24 * 3600_000 + 1_000);
    const fresh = `fresh-${randomUUID()}@example.dk`;
    await driver.get('/developers/signup');
    expect((await driver.post('/developers/signup', { email: fresh })).status).toBe(303);
    const first = await purge();
    expect(first.signups).toBeGreaterThanOrEqual(1);
    expect(await n(`SELECT count(*) AS n FROM developer_signups WHERE email = $1`, [unconfirmed])).toBe(0);
    expect(await n(`SELECT count(*) AS n FROM developer_signups WHERE email = $1`, [fresh])).toBe(1);
    expect(await n(`SELECT count(*) AS n FROM developers WHERE email = ANY($1)`, [[gone.email, approved.email, back.email]])).toBe(3);

    // 89 days after their last sign-in nobody is gone yet; at 91 days the one who did not come back is
    // (counted by email: suites share the database, and other suites' developers may be gone by now)
    clock.advance(88 * 24 * 3600_000);
    await purge();
    expect(await n(`SELECT count(*) AS n FROM developers WHERE email = ANY($1)`, [[gone.email, approved.email, back.email]])).toBe(3);
    clock.advance(2 * 24 * 3600_000);
    const signIn = new PageDriver(app);
    await signIn.get('/developers/signin');
    expect((await signIn.post('/developers/signin', { email: back.email, password: DEV_PASSWORD, code: totpCodeAt(back.secret, clock.nowMs()) })).status).toBe(
      303,
    );
    expect((await purge()).developers).toBeGreaterThanOrEqual(1);

    expect(await n(`SELECT count(*) AS n FROM developers WHERE email = $1`, [gone.email])).toBe(0);
    expect(await n(`SELECT count(*) AS n FROM developers WHERE email = ANY($1)`, [[approved.email, back.email]])).toBe(2);
    for (const id of goneApps) expect((await app.console().get(`/console/v1/apps/${id}`).set('Authorization', KEY)).status).toBe(404);
    expect((await app.console().get(`/console/v1/organizations/${goneOrg}`).set('Authorization', KEY)).status).toBe(404);
    expect((await app.console().get(`/console/v1/apps/${approvedApp}`).set('Authorization', KEY)).status).toBe(200);
    expect(
      (
        await app
          .partner()
          .post(`${SANDBOX}/journal/prepare`)
          .set('Authorization', `Bearer ${token}`)
          .send(aJournal(accountIds(page)))
      ).status,
    ).toBe(401);
    for (const table of ['journal_entries', 'attachments', 'attachment_contents', 'products', 'operation_receipts', 'webhook_outbox', 'accounts']) {
      expect(await n(`SELECT count(*) AS n FROM ${table} WHERE organization_id = $1`, [goneOrg])).toBe(0);
    }
    // the gone developer can neither sign in nor is the email taken
    const again = new PageDriver(app);
    await again.get('/developers/signin');
    clock.advance(30_000);
    expect(
      (await signInTry(again, '/developers/signin', { email: gone.email, password: DEV_PASSWORD, code: totpCodeAt(gone.secret, clock.nowMs()) })).answer,
    ).toBe('refused');
    expect((await app.console().post('/console/v1/developers').set('Authorization', KEY).send({ email: gone.email, password: DEV_PASSWORD })).status).toBe(201);
  });
});

describe('sign-up while the SMTP server is away (issue 35)', () => {
  it('answers 503 with Retry-After (a fault, not the person), and never logs the SMTP password', async () => {
    const closed = await new SmtpInbox().start();
    const password = 'smtp-hemmelighed-9f2c';
    const url = closed.url.replace('smtp://', `smtp://mailer:${password}@`);
    await closed.stop();
    const lines: string[] = [];
    const app = await createTestApp({ smtpUrl: url, logLevel: 'debug' }, { logStream: captureLog(lines) });
    try {
      const driver = new PageDriver(app);
      await driver.get('/developers/signup');
      const res = await driver.post('/developers/signup', { email: `away-${randomUUID()}@example.dk` });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(lines.some((l) => l.includes('email not sent'))).toBe(true);
      expect(lines.join('\n')).not.toContain(password);
    } finally {
      await app.close();
    }
  });
});
