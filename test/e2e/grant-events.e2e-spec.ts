import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { GrantEventsScan } from '../../src/modules/auth/grants';
import { SCOPES } from '../../src/shared/domain/scopes';
import { WebhookDispatcher } from '../../src/modules/webhooks';
import { aConsentSetup, type ConsentSetup, consentOverHttp, nextCode, PageDriver, PASSWORD, pkcePair, REDIRECT_URI } from '../support/consent-fixtures';
import { aSandboxProject, PRODUCTION, SANDBOX } from '../support/fixtures';
import { aProductionAccess, aToken, codeOf, consolePost, ManualClock, type Owner } from '../support/production-fixtures';
import { checkWebhookBody } from '../support/response-validation';
import { createTestApp, describeOnPostgres, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

/**
 * CONTRACT §18 (with §9 and §14): `GET {base}/grant`, and the grant events — `grant.revoked` in the
 * transaction that revokes (console, Connected apps, /oauth/revoke) or supersedes, and after an expiry;
 * `grant.expiring` once, 14 days ahead — to the app's production endpoints and its events feed, in
 * commit order. Expiry is driven by the Clock port (a ManualClock) and the scan of GrantEventsScan.
 */

const DAY_MS = 86_400_000;
const DAY = 86_400;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real local HTTP receiver that answers 204. */
async function aReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

type Event = { id?: string; type: string; timestamp: string; data: Record<string, unknown> };

describe('grant events and the grant read (CONTRACT §18)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 9, 0, 0));
  let receiver: Awaited<ReturnType<typeof aReceiver>>;

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
    receiver = await aReceiver();
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  /** The app's production endpoint at the receiver; its secret verifies the signatures. */
  const anEndpoint = async (appId: string): Promise<string> => {
    const res = await consolePost(app, `/apps/${appId}/webhook-endpoints`, { url: `${receiver.url}/${appId}`, environment: 'production' });
    expect(res.status).toBe(201);
    return res.body.secret as string;
  };
  /**
   * The events delivered for the app (its endpoint's path), their signatures checked with its secret, in
   * arrival order. The webhook-timestamp is the ManualClock's, days from the real time that
   * Webhook.verify holds it to, so the signature is recomputed rather than verified.
   */
  const deliveredTo = (appId: string, secret: string): Event[] =>
    receiver.received
      .filter((r) => r.path === `/hook/${appId}`)
      .map((r) => {
        const [id, timestamp] = [String(r.headers['webhook-id']), Number(r.headers['webhook-timestamp'])];
        const expected = new Webhook(secret).sign(id, new Date(timestamp * 1000), r.body);
        expect(String(r.headers['webhook-signature']).split(' ')).toContain(expected);
        return JSON.parse(r.body) as Event;
      });

  const feed = async (token: string, env = PRODUCTION): Promise<Event[]> => {
    const events: Event[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await app
        .partner()
        .get(`${env}/events`)
        .query({ limit: 100, ...(after ? { after } : {}) })
        .set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      events.push(...res.body.data);
      after = res.body.next_cursor;
      if (!res.body.has_more) return events;
    }
  };
  const grantEventsIn = (events: Event[]) => events.filter((e) => e.type.startsWith('grant.'));
  const readGrant = (token: string, env = PRODUCTION) => app.partner().get(`${env}/grant`).set('Authorization', `Bearer ${token}`);
  const createProduct = (token: string) =>
    app
      .partner()
      .post(`${PRODUCTION}/products`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send({ code: `G-${randomUUID()}`, name: 'Grant events' });
  /** A new grant for the same organization and app (supersedes), signed with the owner's next code. */
  const grantAgain = async (
    access: { organization: { id: string }; app: { id: string }; owner: Owner; grantedAccountIds: string[] },
    duration_seconds?: number,
  ) => {
    clock.advance(30_000);
    const res = await consolePost(app, `/organizations/${access.organization.id}/grants`, {
      app_id: access.app.id,
      owner_user_id: access.owner.user_id,
      totp_code: codeOf(access.owner, clock.nowMs()),
      account_ids: access.grantedAccountIds,
      scopes: ['journal:prepare', 'products:create', 'operations:read'],
      ...(duration_seconds !== undefined ? { duration_seconds } : {}),
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; expires_at: string };
  };
  const scan = () => app.apps.partner.get(GrantEventsScan).runOnce();
  const dispatch = () => app.apps.partner.get(WebhookDispatcher).runOnce();

  /** Every grant event body as its §9/§18 shape: exactly type, timestamp, data, and data exactly its members. */
  function expectShape(e: Event): void {
    const { id: _id, ...body } = e;
    expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(e.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const members = e.type === 'grant.revoked' ? ['at', 'grant_id', 'organization_id', 'reason'] : ['expires_at', 'grant_id', 'organization_id'];
    expect(Object.keys(e.data).sort()).toEqual(members);
    expect(checkWebhookBody(JSON.stringify(body))).toBeNull();
  }

  describe('GET {base}/grant', () => {
    it("sandbox: the project's organization, no grant, every scope, every active account, no expiry, a mandate", async () => {
      const p = await aSandboxProject(app);
      await consolePost(app, `/accounts/${p.accounts[1].id}/deactivate`);
      const res = await readGrant(p.token, SANDBOX);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        environment: 'sandbox',
        organization_id: p.organization_id,
        grant_id: null,
        // every scope of the registry (CONTRACT §8: a sandbox token may call every operation)
        scopes: [...SCOPES],
        account_ids: (await app.partner().get(`${SANDBOX}/accounts`).set('Authorization', `Bearer ${p.token}`)).body.data.map((a: { id: string }) => a.id),
        expires_at: null,
        mandate: true,
      });
      expect(res.body.account_ids).toHaveLength(p.accounts.length - 1);
      expect(res.body.account_ids).not.toContain(p.accounts[1].id);
      // the environment is the base path's: a sandbox token on the production base is refused
      const wrong = await readGrant(p.token, PRODUCTION);
      expect([wrong.status, wrong.body.code]).toEqual([401, 'token_environment_mismatch']);
    });

    it("production: the grant's id, scopes (any one suffices), selected accounts, expiry and mandate; nothing else", async () => {
      const access = await aProductionAccess(app, { scopes: ['operations:read'], accounts: 4, grantedAccounts: 3, nowMs: clock.nowMs() });
      const res = await readGrant(access.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        environment: 'production',
        organization_id: access.organization.id,
        grant_id: access.grant.id,
        scopes: ['operations:read'],
        account_ids: access.grantedAccountIds,
        expires_at: access.grant.expires_at,
        mandate: false,
      });
      expect(Object.keys(res.body)).toEqual(['environment', 'organization_id', 'grant_id', 'scopes', 'account_ids', 'expires_at', 'mandate']);
      // a mandate given, an account deactivated: the read says what the token may do now
      clock.advance(30_000);
      const mandate = await consolePost(app, `/organizations/${access.organization.id}/mandates`, {
        app_id: access.app.id,
        owner_user_id: access.owner.user_id,
        totp_code: codeOf(access.owner, clock.nowMs()),
      });
      expect(mandate.status).toBe(201);
      await consolePost(app, `/accounts/${access.grantedAccountIds[0]}/deactivate`);
      const now = await readGrant(access.token);
      expect(now.body).toMatchObject({ mandate: true, account_ids: access.grantedAccountIds.slice(1) });
      // a token of a revoked grant reads nothing
      expect((await consolePost(app, `/grants/${access.grant.id}/revoke`)).status).toBe(200);
      const revoked = await readGrant(access.token);
      expect([revoked.status, revoked.body.code]).toEqual([403, 'grant_revoked']);
      const missing = await app.partner().get(`${PRODUCTION}/grant`);
      expect([missing.status, missing.body.code]).toEqual([401, 'missing_token']);
    });

    it('a sandbox project has no grant events', async () => {
      const p = await aSandboxProject(app);
      expect((await consolePost(app, `/sandbox/projects/${p.project_id}/generations`)).status).toBe(201);
      const fresh = await consolePost(app, `/sandbox/projects/${p.project_id}/generations`);
      expect(grantEventsIn(await feed(fresh.body.token, SANDBOX))).toEqual([]);
    });
  });

  describe('grant.revoked', () => {
    it("console revoke: one signed grant.revoked (reason revoked) to the app's endpoint, in the revoking transaction; a second revoke tells nothing more", async () => {
      const access = await aProductionAccess(app, { nowMs: clock.nowMs() });
      const secret = await anEndpoint(access.app.id);
      clock.advance(1_000);
      const revokedAt = clock.now().toISOString();
      expect((await consolePost(app, `/grants/${access.grant.id}/revoke`)).status).toBe(200);
      await eventually(() => deliveredTo(access.app.id, secret).length === 1, 'the grant.revoked delivery', 8000);
      const [event] = deliveredTo(access.app.id, secret);
      expectShape(event);
      expect(event).toEqual({
        type: 'grant.revoked',
        timestamp: revokedAt,
        data: { grant_id: access.grant.id, organization_id: access.organization.id, reason: 'revoked', at: revokedAt },
      });
      clock.advance(1_000);
      expect((await consolePost(app, `/grants/${access.grant.id}/revoke`)).status).toBe(200);
      await scan();
      await dispatch();
      expect(deliveredTo(access.app.id, secret)).toHaveLength(1);
      // the operator's read of the deliveries: a grant event has no operation
      const deliveries = await app.console().get(`/console/v1/apps/${access.app.id}/webhook-deliveries`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
      expect(deliveries.status).toBe(200);
      expect(deliveries.body).toEqual([expect.objectContaining({ operation_id: null, status: 'delivered', attempts: 1 })]);
    });

    it("Connected apps: the owner's Revoke sends grant.revoked (reason revoked)", async () => {
      const s = await aConsentSetup(app);
      const grant = await consolePost(app, `/organizations/${s.organization.id}/grants`, {
        app_id: s.app.id,
        owner_user_id: s.owner.user_id,
        totp_code: nextCode(clock, s),
        account_ids: [s.organization.accounts[0].id],
        scopes: ['journal:prepare'],
      });
      expect(grant.status).toBe(201);
      const secret = await anEndpoint(s.app.id);
      const driver = new PageDriver(app);
      expect((await driver.get('/account/connections')).status).toBe(200);
      const signedIn = await driver.post('/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([200, 303]).toContain(signedIn.status);
      const revokedAt = clock.now().toISOString();
      await revokeOnConnectedApps(driver, grant.body.id);
      await eventually(() => deliveredTo(s.app.id, secret).length === 1, 'the grant.revoked delivery', 8000);
      expect(deliveredTo(s.app.id, secret)[0].data).toEqual({ grant_id: grant.body.id, organization_id: s.organization.id, reason: 'revoked', at: revokedAt });
    });

    it("/oauth/revoke: the app's token is forgotten, its grant revoked (other tokens 403 grant_revoked) and grant.revoked sent", async () => {
      const s = await aConsentSetup(app);
      const grant = await consolePost(app, `/organizations/${s.organization.id}/grants`, {
        app_id: s.app.id,
        owner_user_id: s.owner.user_id,
        totp_code: nextCode(clock, s),
        account_ids: [s.organization.accounts[0].id],
        scopes: ['operations:read'],
      });
      const [token, other] = [await aToken(app, grant.body.id), await aToken(app, grant.body.id)];
      const secret = await anEndpoint(s.app.id);
      const revokedAt = clock.now().toISOString();
      const res = await app
        .partner()
        .post('/oauth/revoke')
        .type('form')
        .send(new URLSearchParams({ token, client_id: s.client.client_id, client_secret: s.client.client_secret }).toString());
      expect(res.status).toBe(200);
      expect((await readGrant(token)).body.code).toBe('invalid_token');
      expect((await readGrant(other)).body.code).toBe('grant_revoked');
      await eventually(() => deliveredTo(s.app.id, secret).length === 1, 'the grant.revoked delivery', 8000);
      expect(deliveredTo(s.app.id, secret)[0].data).toEqual({ grant_id: grant.body.id, organization_id: s.organization.id, reason: 'revoked', at: revokedAt });
      // another app's token, an unknown one: nothing revoked, nothing sent
      const b = await aProductionAccess(app, { nowMs: clock.nowMs() });
      const foreign = await app
        .partner()
        .post('/oauth/revoke')
        .type('form')
        .send(new URLSearchParams({ token: b.token, client_id: s.client.client_id, client_secret: s.client.client_secret }).toString());
      expect(foreign.status).toBe(200);
      expect((await readGrant(b.token)).status).toBe(200);
      expect(grantEventsIn(await feed(b.token))).toEqual([]);
    });

    it('a new consent supersedes: grant.revoked (reason superseded) in the same transaction, listed in the feed in commit order between the writes', async () => {
      const s = await aConsentSetup(app);
      const first = await consentToken(s);
      const firstProduct = await createProduct(first.access_token);
      expect(firstProduct.status).toBe(201);
      const secret = await anEndpoint(s.app.id);
      const second = await consentToken(s);
      const supersededAt = clock.now().toISOString();
      expect((await readGrant(first.access_token)).body.code).toBe('grant_revoked');
      const secondProduct = await createProduct(second.access_token);
      expect(secondProduct.status).toBe(201);

      const events = await feed(second.access_token);
      expect(events.map((e) => [e.type, e.type === 'grant.revoked' ? e.data.grant_id : e.data.operation_id])).toEqual([
        ['operation.completed', firstProduct.body.operation_id],
        ['grant.revoked', first.grant_id],
        ['operation.completed', secondProduct.body.operation_id],
      ]);
      const revoked = events[1];
      expectShape(revoked);
      expect(revoked.data).toEqual({ grant_id: first.grant_id, organization_id: s.organization.id, reason: 'superseded', at: supersededAt });
      // the feed's event is the delivery's: same webhook-id, same body
      await eventually(() => deliveredTo(s.app.id, secret).some((e) => e.type === 'grant.revoked'), 'the grant.revoked delivery', 8000);
      const delivery = receiver.received.find((r) => r.path === `/hook/${s.app.id}` && r.body.includes('"grant.revoked"'))!;
      expect(delivery.headers['webhook-id']).toBe(revoked.id);
      const { id: _id, ...body } = revoked;
      expect(JSON.parse(delivery.body)).toEqual(body);
    });

    it('superseding a grant that was revoked or had expired sends no second grant.revoked', async () => {
      const access = await aProductionAccess(app, { nowMs: clock.nowMs() });
      expect((await consolePost(app, `/grants/${access.grant.id}/revoke`)).status).toBe(200);
      const second = await grantAgain(access, 20 * DAY);
      const token = await aToken(app, second.id);
      expect(grantEventsIn(await feed(token)).map((e) => [e.data.grant_id, e.data.reason])).toEqual([[access.grant.id, 'revoked']]);
    });
  });

  describe('expiry, driven by the Clock', () => {
    it('grant.expiring once 14 days ahead, then grant.revoked (reason expired, at the expiry) once after it; a grant given later lists both', async () => {
      const access = await aProductionAccess(app, { nowMs: clock.nowMs(), duration_seconds: 15 * DAY });
      const expiresAt = access.grant.expires_at;
      const secret = await anEndpoint(access.app.id);
      // more than 14 days ahead: nothing yet
      await scan();
      expect(grantEventsIn(await feed(access.token))).toEqual([]);
      clock.advance(DAY_MS + 1_000);
      const expiringAt = clock.now().toISOString();
      await scan();
      await scan();
      const expiring = grantEventsIn(await feed(access.token));
      expect(expiring).toHaveLength(1);
      expectShape(expiring[0]);
      expect(expiring[0]).toMatchObject({
        type: 'grant.expiring',
        timestamp: expiringAt,
        data: { grant_id: access.grant.id, organization_id: access.organization.id, expires_at: expiresAt },
      });
      // the last second in force, then past it
      clock.advance(Date.parse(expiresAt) - clock.nowMs() - 1_000);
      await scan();
      expect((await readGrant(access.token)).status).toBe(200);
      expect(grantEventsIn(await feed(access.token))).toHaveLength(1);
      clock.advance(2_000);
      await scan();
      await scan();
      const expired = await readGrant(access.token);
      expect([expired.status, expired.body.code]).toEqual([403, 'grant_expired']);
      await eventually(() => deliveredTo(access.app.id, secret).length === 2, 'both deliveries', 8000);
      // a new grant for the app after the expiry supersedes nothing in force: no superseded event
      const next = await grantAgain(access, 20 * DAY);
      const events = grantEventsIn(await feed(await aToken(app, next.id)));
      expect(events.map((e) => e.type)).toEqual(['grant.expiring', 'grant.revoked']);
      expectShape(events[1]);
      expect(events[1].data).toEqual({ grant_id: access.grant.id, organization_id: access.organization.id, reason: 'expired', at: expiresAt });
      await dispatch();
      // webhooks promise no order between events (the feed does): each once
      expect(
        deliveredTo(access.app.id, secret)
          .map((e) => e.type)
          .sort(),
      ).toEqual(['grant.expiring', 'grant.revoked']);
    });

    it('a grant of 14 days or less is told at once, in the granting transaction, and only once', async () => {
      const access = await aProductionAccess(app, { nowMs: clock.nowMs(), duration_seconds: 14 * DAY });
      const events = grantEventsIn(await feed(access.token));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'grant.expiring', data: { grant_id: access.grant.id, expires_at: access.grant.expires_at } });
      clock.advance(DAY_MS);
      await scan();
      expect(grantEventsIn(await feed(access.token))).toHaveLength(1);
      // a second longer than 14 days: not at once
      const longer = await aProductionAccess(app, { nowMs: clock.nowMs(), duration_seconds: 14 * DAY + 1 });
      expect(grantEventsIn(await feed(longer.token))).toEqual([]);
    });

    it('a revoked grant is told neither that it is expiring nor that it expired', async () => {
      const access = await aProductionAccess(app, { nowMs: clock.nowMs(), duration_seconds: 15 * DAY });
      const second = await grantAgain(access, 30 * DAY);
      clock.advance(16 * DAY_MS);
      await scan();
      const events = grantEventsIn(await feed(await aToken(app, second.id)));
      // the superseded grant's end, and the second grant's own expiring (30 days, 16 passed)
      expect(events.map((e) => [e.type, e.data.grant_id, e.data.reason])).toEqual([
        ['grant.revoked', access.grant.id, 'superseded'],
        ['grant.expiring', second.id, undefined],
      ]);
    });
  });

  /** The owner's Revoke on Connected apps: its confirmation page (CONTRACT §18), then Confirm. */
  async function revokeOnConnectedApps(driver: PageDriver, grantId: string): Promise<void> {
    const confirm = await driver.get(`/account/connections/revoke?grant_id=${grantId}`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('>Confirm</button>');
    const res = await driver.post('/account/connections/revoke', { grant_id: grantId });
    expect(res.status).toBe(303);
  }

  /** The consent pages, then the code exchanged for a token (client_secret_post). */
  async function consentToken(s: ConsentSetup): Promise<{ access_token: string; grant_id: string }> {
    const { verifier, challenge } = pkcePair();
    const { location } = await consentOverHttp(app, clock, s, { challenge, accountIds: [s.organization.accounts[0].id] });
    const code = new URL(location).searchParams.get('code') as string;
    const res = await app
      .partner()
      .post('/oauth/token')
      .type('form')
      .send(
        new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
          client_id: s.client.client_id,
          client_secret: s.client.client_secret,
        }).toString(),
      );
    expect(res.status).toBe(200);
    return res.body;
  }
});

describeOnPostgres('grant events when two instances scan at once (CONTRACT §18: exactly once)', () => {
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({}, { clock });
    b = await createTestApp({}, { clock });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("each grant is told expiring once and expired once, however the two instances' scans interleave", async () => {
    const grants: string[] = [];
    for (let i = 0; i < 12; i++) grants.push((await aProductionAccess(a, { nowMs: clock.nowMs(), duration_seconds: 20 * DAY })).grant.id);
    const count = async (type: string): Promise<Array<{ grant_id: string; n: number }>> =>
      (
        (await a.apps.dataSource.query(
          `SELECT body::jsonb -> 'data' ->> 'grant_id' AS grant_id, count(*)::int AS n FROM webhook_outbox
          WHERE event_type = $1 AND body::jsonb -> 'data' ->> 'grant_id' = ANY($2) GROUP BY 1`,
          [type, grants],
        )) as Array<{ grant_id: string; n: number }>
      ).sort((x, y) => (x.grant_id < y.grant_id ? -1 : 1));
    const scans = (batch: number) =>
      Promise.all([
        a.apps.partner.get(GrantEventsScan).runOnce(batch),
        b.apps.partner.get(GrantEventsScan).runOnce(batch),
        a.apps.partner.get(GrantEventsScan).runOnce(batch),
        b.apps.partner.get(GrantEventsScan).runOnce(batch),
      ]);
    clock.advance(7 * DAY_MS);
    await scans(2);
    expect(await count('grant.expiring')).toEqual([...grants].sort().map((grant_id) => ({ grant_id, n: 1 })));
    clock.advance(14 * DAY_MS);
    await scans(2);
    await scans(2);
    expect(await count('grant.revoked')).toEqual([...grants].sort().map((grant_id) => ({ grant_id, n: 1 })));
    expect(await count('grant.expiring')).toHaveLength(12);
  }, 180_000);
});
