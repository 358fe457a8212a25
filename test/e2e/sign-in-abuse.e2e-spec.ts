import { aConsentSetup, authorizeQuery, nextCode, PageDriver, PASSWORD, pkcePair } from '../support/consent-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 27 findings 3 and 4 (CONTRACT §11 v4): the sign-in lockout is counted per (email, client
 * address), taken and recorded before the password is checked, so a burst cannot slip past it and a
 * stranger elsewhere cannot lock the owner out.
 */
describe('sign-in lockout per email and client address (CONTRACT §11)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 10));

  beforeAll(async () => {
    // the peer is 127.0.0.1 (loopback): X-Forwarded-For names the client
    app = await createTestApp({ trustProxy: 'loopback' }, { clock });
  });
  afterAll(() => app.close());

  it('finding 3: of 30 concurrent guesses for one email, at most 5 are checked; the right password sent after the first 20 does not get in', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    driver.headers = { 'X-Forwarded-For': '203.0.113.10' };
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const code = nextCode(clock, s);
    const burst: Array<ReturnType<PageDriver['post']>> = [];
    for (let i = 0; i < 30; i++) {
      const password = i === 20 ? PASSWORD : `wrong guess ${i}`;
      burst.push(driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password, code }));
    }
    const answers = await Promise.all(burst);
    const checked = answers.filter((r) => r.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.every((r) => [401, 429].includes(r.status))).toBe(true);
    expect(answers[20].status).toBe(429);
    expect(answers[20].text).not.toContain('Allow access');
    // and it stays locked from that address, right password and code or not
    const after = await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(after.status).toBe(429);
  });

  it('finding 4: 5 failures from address A lock A, not B: the owner signs in from B', async () => {
    const s = await aConsentSetup(app);
    const fromA = new PageDriver(app);
    fromA.headers = { 'X-Forwarded-For': '198.51.100.7' };
    await fromA.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    for (let i = 0; i < 5; i++) {
      expect((await fromA.post('/oauth/authorize/sign-in', { email: s.owner.email, password: `stranger ${i}`, code: '000000' })).status).toBe(401);
    }
    const lockedA = await fromA.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(lockedA.status).toBe(429);
    expect(Number(lockedA.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const fromB = new PageDriver(app);
    fromB.headers = { 'X-Forwarded-For': '192.0.2.44' };
    await fromB.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const signedIn = await fromB.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.text).toContain('Allow access');
    // the connections page counts the same way
    const connections = new PageDriver(app);
    connections.headers = { 'X-Forwarded-For': '192.0.2.44' };
    await connections.get('/account/connections');
    expect((await connections.post('/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(200);
    fromA.headers = { 'X-Forwarded-For': '198.51.100.7' };
    expect((await fromA.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(429);
  });

  it('the proxy chain: only the address the trusted proxy appended counts (a client cannot pick its own)', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    // loopback is trusted, so the right-most untrusted entry is the client: the left-most entries are the client's own claim
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    for (let i = 0; i < 5; i++) {
      driver.headers = { 'X-Forwarded-For': `10.9.9.${i}, 203.0.113.99` };
      expect((await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: `chain ${i}`, code: '000000' })).status).toBe(401);
    }
    driver.headers = { 'X-Forwarded-For': '10.9.9.200, 203.0.113.99' };
    expect((await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(429);
  });
});

describe('without TRUST_PROXY the peer is the client address (CONTRACT §2)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  it('ignores X-Forwarded-For: 5 failures lock the peer whatever the header says', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    for (let i = 0; i < 5; i++) {
      driver.headers = { 'X-Forwarded-For': `198.51.100.${i}` };
      expect((await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: `wrong ${i}`, code: '000000' })).status).toBe(401);
    }
    driver.headers = { 'X-Forwarded-For': '192.0.2.1' };
    expect((await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(429);
  });
});
