import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import request from 'supertest';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { PageDriver, postAndFollow } from '../support/consent-fixtures';
import { anAppOnThePage, DEV_PASSWORD } from '../support/developer-fixtures';
import { aJournal, SANDBOX } from '../support/fixtures';
import { serviceEnv, startService, stopService, tempDirsOfSpec, waitForReady } from '../support/service-process';
import { TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

/**
 * Issue 43 finding 10, CONTRACT §2 and §21 "Local webhooks": WEBHOOK_ALLOWED_NETWORKS as the built service
 * reads it from its environment — on the embedded store `npm start` alone lets a developer's endpoint on
 * 127.0.0.1 receive deliveries (sign-up stays open); a listed link-local range stops the start with one
 * line naming it; WEBHOOK_ALLOW_PRIVATE_NETWORKS is ignored with a warning naming the new variable, and a
 * private range listed while sign-up is open is a warning. Runs the built service (npm test builds it first).
 */
describe('WEBHOOK_ALLOWED_NETWORKS in the service process (issue 43 finding 10)', () => {
  const tempDir = tempDirsOfSpec();

  it("on the embedded store with nothing set, a developer's endpoint on 127.0.0.1 receives the sandbox's deliveries", async () => {
    const hits: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += String(c)));
      req.on('end', () => {
        hits.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { env, origin } = await serviceEnv(tempDir('partner-api-local-hooks-'));
    // only what any machine has to set to talk to its console: no WEBHOOK_* and no DEVELOPER_SIGNUP
    const proc = startService({ ...env, CONSOLE_API_KEY: TEST_CONSOLE_KEY });
    try {
      await waitForReady(`${origin}/health/ready`, 90_000, proc);
      expect(await (await fetch(`${origin}/developers/signup`)).status).toBe(200);
      const email = `local-${randomUUID()}@example.dk`;
      const made = await fetch(`http://127.0.0.1:${env.CONSOLE_PORT}/console/v1/developers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_CONSOLE_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: DEV_PASSWORD }),
      });
      expect(made.status).toBe(201);
      const secret = ((await made.json()) as { totp_secret: string }).totp_secret;
      const driver = new PageDriver({ partner: () => request(origin) } as unknown as TestApp);
      await driver.get('/developers/signin');
      expect((await driver.post('/developers/signin', { email, password: DEV_PASSWORD, code: totpCodeAt(secret, Date.now()) })).status).toBe(303);
      const appId = await anAppOnThePage({ email, secret, driver });
      await driver.get(`/developers/apps/${appId}`);
      const registered = await driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url: hookUrl, environment: 'sandbox' });
      expect(registered.status).toBe(303);
      const page = await postAndFollow(driver, `/developers/apps/${appId}/sandbox-token`, {});
      const token = /id="issued-value">([^<]+)</.exec(page.text)?.[1] as string;
      const section = page.text.slice(page.text.indexOf('id="sandbox"'), page.text.indexOf('id="oauth"'));
      const accounts = [...section.matchAll(/data-label="Account id"><code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
      const write = await request(origin)
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${token}`)
        .set('Idempotency-Key', randomUUID())
        .send(aJournal(accounts));
      expect(write.status).toBe(201);
      await eventually(() => hits.length > 0, 'the delivery to 127.0.0.1', 30_000);
      expect(JSON.parse(hits[0])).toMatchObject({ type: expect.any(String) });
    } finally {
      await stopService(proc);
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 180_000);

  it('stops the start when a listed range overlaps link-local, in one line naming it, before it opens DATA_DIR', async () => {
    const dataDir = tempDir('partner-api-networks-');
    const { env } = await serviceEnv(dataDir);
    const proc = startService({ ...env, WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,169.254.169.254/32' });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr().trim().split('\n')).toEqual([
      'configuration error: WEBHOOK_ALLOWED_NETWORKS lists 169.254.169.254/32, which overlaps 169.254.0.0/16 (link-local, cloud metadata): no webhook may ever reach it',
    ]);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('starts with WEBHOOK_ALLOW_PRIVATE_NETWORKS set, warning that it is ignored (naming WEBHOOK_ALLOWED_NETWORKS), and warns of a private range while sign-up is open', async () => {
    const { env, origin } = await serviceEnv(tempDir('partner-api-networks-'));
    const proc = startService({
      ...env,
      DATABASE_URL: 'pglite://memory',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,127.0.0.0/8',
    });
    try {
      await waitForReady(`${origin}/health/ready`, 90_000, proc);
      const log = () => `${proc.stdout()}${proc.stderr()}`;
      await eventually(() => log().includes('WEBHOOK_ALLOW_PRIVATE_NETWORKS is ignored'), 'the warning', 30_000);
      const lines = log()
        .split('\n')
        .filter((l) => l.includes('WEBHOOK_ALLOW'))
        .map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          msg: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS is ignored (replaced in version 6): list the networks webhook endpoints may reach in WEBHOOK_ALLOWED_NETWORKS (comma-separated CIDR ranges; now "10.0.0.0/8,127.0.0.0/8")',
        }),
        expect.objectContaining({
          level: 40,
          msg: 'WEBHOOK_ALLOWED_NETWORKS lists private range(s) 10.0.0.0/8 while DEVELOPER_SIGNUP is open: anyone who signs up can have webhooks sent into them',
        }),
      ]);
    } finally {
      await stopService(proc);
    }
  }, 120_000);
});
