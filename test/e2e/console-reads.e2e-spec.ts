import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCOPES } from '../../src/shared/domain/scopes';
import { aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { aProductionAccess, consolePost } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const SECRETISH = /(hsk_|hat_|whsec_|hcs_|totp_secret|secret|token)/i;

async function until(check: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('console reads and resend (CONTRACT §10)', () => {
  let app: TestApp;
  const get = (path: string) => app.console().get(`/console/v1${path}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('GET /organizations/{org}: accounts, tax codes and owners, no secret', async () => {
    const access = await aProductionAccess(app);
    await consolePost(app, `/organizations/${access.organization.id}/tax-codes`, { code: 'U25', rate_basis_points: 2500 });
    await consolePost(app, `/accounts/${access.organization.accounts[2].id}/deactivate`);
    const res = await get(`/organizations/${access.organization.id.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: access.organization.id,
      name: 'Test ApS',
      // an operator's organization, not a developer's demo company (CONTRACT §15)
      demo: false,
      accounts: access.organization.accounts.map((a, i) => ({ id: a.id, number: a.number, name: a.name, active: i !== 2 })),
      tax_codes: [{ id: expect.any(String), code: 'U25', rate_basis_points: 2500 }],
      owners: [{ user_id: access.owner.user_id, email: expect.stringMatching(/^owner.*@example\.dk$/) }],
    });
    expect(JSON.stringify(res.body)).not.toMatch(SECRETISH);
    expect(JSON.stringify(res.body)).not.toContain(access.owner.totp_secret);
  });

  it('GET /organizations/{org}/grants lists grants, superseded and revoked ones as revoked', async () => {
    const access = await aProductionAccess(app);
    const res = await get(`/organizations/${access.organization.id}/grants`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: access.grant.id,
        app_id: access.app.id,
        scopes: [...SCOPES], // the fixture's default: every scope, in the registry's order
        account_ids: [...access.grantedAccountIds].sort(),
        expires_at: access.grant.expires_at,
        revoked: false,
      },
    ]);
    await consolePost(app, `/grants/${access.grant.id}/revoke`);
    const after = await get(`/organizations/${access.organization.id}/grants`);
    expect(after.body[0].revoked).toBe(true);
    expect(JSON.stringify(after.body)).not.toMatch(/hat_/);
  });

  it('unknown or non-uuid organizations and apps are 404; reads need the key', async () => {
    for (const path of [
      '/organizations/00000000-0000-4000-8000-000000000000',
      '/organizations/nope/grants',
      '/apps/00000000-0000-4000-8000-000000000000/webhook-deliveries',
    ]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const noKey = await app.console().get('/console/v1/organizations/00000000-0000-4000-8000-000000000000');
    expect(noKey.status).toBe(401);
    expect(noKey.body.code).toBe('missing_token');
  });

  describe('webhook deliveries', () => {
    let project: SandboxProject;
    let receiver: Server;
    let received: Array<{ id: string; body: string }>;
    let status = 500;

    beforeAll(async () => {
      received = [];
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push({ id: String(req.headers['webhook-id']), body });
          res.statusCode = status;
          res.end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      project = await aSandboxProject(app);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      expect((await consolePost(app, `/apps/${project.app_id}/webhook-endpoints`, { url, environment: 'sandbox' })).status).toBe(201);
    });
    afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

    it('lists the latest deliveries newest first, honours limit, and resends one at once with the same id and body', async () => {
      const operationIds: string[] = [];
      for (const code of ['A-1', 'A-2']) {
        const res = await app
          .partner()
          .post(`${SANDBOX}/products`)
          .set('Authorization', `Bearer ${project.token}`)
          .set('Idempotency-Key', `reads-${code}`)
          .send({ code, name: code });
        expect(res.status).toBe(201);
        operationIds.push(res.body.operation_id);
      }
      await until(() => received.length >= 2);
      // the receiver has answered; the dispatcher records the attempts right after (a read in between sees none)
      await until(async () => {
        const body = (await get(`/apps/${project.app_id}/webhook-deliveries?limit=10`)).body as Array<{ last_status_code: number | null }>;
        return body.length === 2 && body.every((d) => d.last_status_code !== null);
      });
      const list = await get(`/apps/${project.app_id}/webhook-deliveries?limit=10`);
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(2);
      expect(list.body.map((d: { operation_id: string }) => d.operation_id)).toEqual([...operationIds].reverse());
      for (const d of list.body) {
        expect(d).toEqual({
          event_id: expect.any(String),
          endpoint_id: expect.any(String),
          operation_id: expect.any(String),
          attempts: expect.any(Number),
          status: expect.stringMatching(/^(pending|failed)$/),
          last_status_code: 500,
        });
      }
      const one = await get(`/apps/${project.app_id}/webhook-deliveries?limit=1`);
      expect(one.body).toEqual([list.body[0]]);
      for (const bad of ['0', '101', 'x', '1.5']) {
        const res = await get(`/apps/${project.app_id}/webhook-deliveries?limit=${bad}`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_input');
      }

      const target = list.body[1] as { event_id: string; endpoint_id: string; attempts: number };
      const first = received.find((r) => r.id === target.event_id)!;
      expect(first).toBeDefined();
      status = 200;
      const before = received.length;
      const resend = await consolePost(app, `/webhook-deliveries/${target.event_id}/${target.endpoint_id}/resend`);
      expect(resend.status).toBe(202);
      expect(resend.body).toMatchObject({ event_id: target.event_id, endpoint_id: target.endpoint_id, status: 'pending' });
      await until(() => received.slice(before).some((r) => r.id === target.event_id), 5000);
      const again = received.slice(before).find((r) => r.id === target.event_id)!;
      expect(again.body).toBe(first.body);
      await until(async () => {
        const res = await get(`/apps/${project.app_id}/webhook-deliveries`);
        const d = res.body.find((x: { event_id: string }) => x.event_id === target.event_id);
        return d?.status === 'delivered' && d.last_status_code === 200 && d.attempts > target.attempts;
      });
    });

    it('resend of an unknown delivery is 404', async () => {
      const res = await consolePost(app, `/webhook-deliveries/00000000-0000-4000-8000-000000000000/${project.app_id}/resend`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
      expect((await consolePost(app, '/webhook-deliveries/x/y/resend')).status).toBe(404);
    });
  });
});
