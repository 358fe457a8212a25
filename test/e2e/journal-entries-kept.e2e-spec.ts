import { randomUUID } from 'node:crypto';
import { DeveloperPurge } from '../../src/modules/developers/infrastructure/developer-purge';
import { IdempotencyService } from '../../src/modules/idempotency';
import { WebhookRetention } from '../../src/modules/webhooks/application/webhook-retention';
import { SCOPES } from '../../src/shared/domain/scopes';
import { WebPurge } from '../../src/shared/web';
import { postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, type Developer } from '../support/developer-fixtures';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX } from '../support/fixtures';
import { aProductionOrganization, anOwner, aToken, codeOf, consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const KEY = `Bearer ${TEST_CONSOLE_KEY}`;
const PDF = Buffer.from('%PDF-1.4\n% bilag\n%%EOF\n', 'latin1');
const DAY = 24 * 3600_000;

/**
 * CONTRACT §17 "Kept": entries and attachments are never purged by the service (5 years at least). Every
 * purge the service runs (the developers', the idempotency records', the webhook retention, the pages')
 * runs here six years on: what was posted to a live organization — a customer's, an active developer's
 * sandbox, a console sandbox project — is all still there; only a gone developer's own sandbox goes
 * (issue 35), which shows the purges did run.
 */
describe('entries and attachments are kept (CONTRACT §17): no purge touches a live organization', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 13, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  const issued = (html: string) => /id="issued-value">([^<]+)</.exec(html)?.[1] as string;
  const sandboxAccountIds = (html: string) => {
    const section = html.slice(html.indexOf('id="sandbox"'), html.indexOf('id="oauth"'));
    return [...section.matchAll(/data-label="Account id"><code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
  };
  const postAndAttach = async (base: string, token: string, accountIds: string[]) => {
    const posted = await app
      .partner()
      .post(`${base}/journal`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(accountIds, { posting_date: '2026-11-20' }));
    expect(posted.status).toBe(201);
    const attached = await app
      .partner()
      .post(`${base}/journal/entries/${posted.body.id}/attachments`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .send(PDF);
    expect(attached.status).toBe(201);
    return { entryId: posted.body.id as string, attachmentId: attached.body.id as string };
  };
  /** A developer's app with a sandbox token, and one sandbox entry with an attachment; its sandbox organization. */
  const aDeveloperWithSandboxEntry = async (name: string) => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d, name);
    const page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    const token = issued((await postAndFollow(d.driver, `/developers/apps/${appId}/sandbox-token`, {})).text);
    await postAndAttach(SANDBOX, token, sandboxAccountIds(page));
    const [{ organization_id }] = await app.apps.dataSource.query(`SELECT sandbox_organization_id AS organization_id FROM developer_apps WHERE app_id = $1`, [
      appId,
    ]);
    return { d, appId, organizationId: organization_id as string };
  };
  const rowsOf = async (organizationId: string) =>
    (
      await app.apps.dataSource.query(
        `SELECT (SELECT count(*) FROM journal_entries WHERE organization_id = $1)::int AS entries,
            (SELECT count(*) FROM journal_lines WHERE organization_id = $1)::int AS lines,
            (SELECT count(*) FROM attachments WHERE organization_id = $1)::int AS attachments,
            (SELECT count(*) FROM attachment_contents WHERE organization_id = $1)::int AS contents`,
        [organizationId],
      )
    )[0];
  const approve = async (d: Developer, appId: string) => {
    await d.driver.get(`/developers/apps/${appId}`);
    await d.driver.post(`/developers/apps/${appId}/revisions`, {});
    const revision = (await app.console().get(`/console/v1/apps/${appId}`).set('Authorization', KEY)).body.revisions[0].id;
    expect((await app.console().post(`/console/v1/apps/${appId}/revisions/${revision}/approve`).set('Authorization', KEY).send({})).status).toBe(200);
  };

  it('six years on, after every purge, a live organization still has every entry, line and attachment', async () => {
    // a developer in production: an approved app, its sandbox entries, and a customer who granted it
    const live = await aDeveloperWithSandboxEntry('I produktion');
    await approve(live.d, live.appId);
    const customer = await aProductionOrganization(app, { accounts: 3 });
    const owner = await anOwner(app, customer.id);
    clock.advance(30_000);
    const grant = await consolePost(app, `/organizations/${customer.id}/grants`, {
      app_id: live.appId,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner, clock.nowMs()),
      account_ids: customer.accounts.map((a) => a.id),
      scopes: [...SCOPES],
    });
    expect(grant.status).toBe(201);
    clock.advance(30_000);
    const mandate = await consolePost(app, `/organizations/${customer.id}/mandates`, {
      app_id: live.appId,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner, clock.nowMs()),
    });
    expect(mandate.status).toBe(201);
    await postAndAttach(
      PRODUCTION,
      await aToken(app, grant.body.id),
      customer.accounts.map((a) => a.id),
    );
    // a sandbox project the operator made
    const project = await aSandboxProject(app);
    const projectEntry = await postAndAttach(
      SANDBOX,
      project.token,
      project.accounts.map((a) => a.id),
    );
    // a developer who never went to production and never comes back
    const gone = await aDeveloperWithSandboxEntry('Glemt');

    const one = { entries: 1, lines: 2, attachments: 1, contents: 1 };
    for (const org of [live.organizationId, customer.id, project.organization_id, gone.organizationId]) expect(await rowsOf(org)).toEqual(one);

    clock.advance(6 * 366 * DAY);
    const get = <T>(type: new (...args: never[]) => T) => app.apps.partner.get(type, { strict: false });
    expect((await get(DeveloperPurge).purge()).developers).toBeGreaterThanOrEqual(1);
    await get(IdempotencyService).purgeExpired();
    await get(WebhookRetention).purge();
    await get(WebPurge).purgeExpired();

    // the purges ran: the gone developer's own sandbox went with it (issue 35)
    expect(await rowsOf(gone.organizationId)).toEqual({ entries: 0, lines: 0, attachments: 0, contents: 0 });
    // everything of the live organizations is kept
    for (const org of [live.organizationId, customer.id, project.organization_id]) expect({ org, rows: await rowsOf(org) }).toEqual({ org, rows: one });
    expect((await app.console().get(`/console/v1/apps/${live.appId}`).set('Authorization', KEY)).status).toBe(200);
    // and reads back over HTTP, the bytes included
    const read = await app.partner().get(`${SANDBOX}/journal/entries/${projectEntry.entryId}`).set('Authorization', `Bearer ${project.token}`);
    expect([read.status, read.body.attachments.map((a: { id: string }) => a.id)]).toEqual([200, [projectEntry.attachmentId]]);
    const file = await app
      .partner()
      .get(`${SANDBOX}/journal/entries/${projectEntry.entryId}/attachments/${projectEntry.attachmentId}`)
      .set('Authorization', `Bearer ${project.token}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect([file.status, Buffer.compare(file.body as Buffer, PDF)]).toEqual([200, 0]);
  });
});
