import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { aDeveloper, anAppOnThePage } from '../support/developer-fixtures';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { anApprovedApp, anOwner, aProductionAccess, aToken, codeOf, consolePost, ManualClock, type ProductionAccess } from '../support/production-fixtures';
import { createTestApp, itOnPostgres, type TestApp } from '../support/test-app';

/**
 * Issue 43 findings 5, 7 and 8 (CONTRACT §20 "Attachments", "Storage"): an executable dressed as a PDF, names
 * that lie, the storage quota of sandbox projects and demo companies, and the upload that told whether another
 * app had sent the file.
 */
const INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1');
const pdfOf = (size: number) => Buffer.concat([PDF, Buffer.alloc(size - PDF.length, 0x20)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A POST whose body goes chunked (no Content-Length: its size is known only once it is read). */
async function sendChunked(
  app: TestApp,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const server = app.apps.partner.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.write(body.subarray(0, 100));
    req.end(body.subarray(100));
  });
}

function partnerCalls(app: TestApp) {
  const postEntry = async (token: string, accountIds: string[], base = SANDBOX) => {
    const res = await app
      .partner()
      .post(`${base}/journal`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(accountIds));
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const upload = (token: string, entryId: string, bytes: Buffer, type: string, options: { base?: string; disposition?: string; key?: string } = {}) => {
    const req = app
      .partner()
      .post(`${options.base ?? SANDBOX}/journal/entries/${entryId}/attachments`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', type)
      .set('Idempotency-Key', options.key ?? randomUUID());
    if (options.disposition !== undefined) req.set('Content-Disposition', options.disposition);
    return req.send(bytes);
  };
  return { postEntry, upload };
}

describe('attachments of a free account: content, names (CONTRACT §20 Attachments), and an upload that tells nothing of other apps', () => {
  let app: TestApp;
  let db: DataSource;
  let p: SandboxProject;
  let calls: ReturnType<typeof partnerCalls>;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
    p = await aSandboxProject(app);
    calls = partnerCalls(app);
  });
  afterAll(() => app.close());

  const entry = () =>
    calls.postEntry(
      p.token,
      p.accounts.map((a) => a.id),
    );
  const rows = async (organizationId: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM attachments WHERE organization_id = $1`, [organizationId]))[0].n as number;

  it('application/xml: refuses HTML, SVG, HTA, a DTD, entities and any root but a UBL Invoice, CreditNote or ApplicationResponse (415, nothing stored)', async () => {
    const project = await aSandboxProject(app);
    const e = await calls.postEntry(
      project.token,
      project.accounts.map((a) => a.id),
    );
    const refused = [
      '<html><body><script>alert(1)</script></body></html>',
      '<!DOCTYPE html><html><body>faktura</body></html>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      '<HTA:APPLICATION ID="faktura"/><script language="VBScript">CreateObject("WScript.Shell").Run "calc"</script>',
      `<?xml version="1.0"?><!DOCTYPE Invoice SYSTEM "file:///etc/passwd"><Invoice xmlns="${INVOICE_NS}"/>`,
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Invoice xmlns="${INVOICE_NS}">&lol2;</Invoice>`,
      `<Invoice xmlns="${INVOICE_NS}">&x;</Invoice>`,
      '<Invoice><ID>1</ID></Invoice>',
      `<Invoice xmlns="${INVOICE_NS}"><ID>1</Invoice>`,
    ];
    for (const xml of refused) {
      const res = await calls.upload(project.token, e.id, Buffer.from(xml), 'application/xml');
      expect({ xml, status: res.status, code: res.body.code }).toEqual({ xml, status: 415, code: 'unsupported_media_type' });
    }
    const dtd = await calls.upload(project.token, e.id, Buffer.from(refused[4]), 'application/xml');
    expect(dtd.body.detail).toMatch(/document type declaration/);
    expect(await rows(project.organization_id)).toBe(0);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM attachment_contents WHERE organization_id = $1`, [project.organization_id]);
    expect(n).toBe(0);

    const accepted = [
      `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="${INVOICE_NS}" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>1042</cbc:ID><cbc:Note>Varer &amp; ydelser</cbc:Note></Invoice>`,
      '<cn:CreditNote xmlns:cn="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/>',
      '<ApplicationResponse xmlns="urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2"></ApplicationResponse>',
    ];
    for (const xml of accepted) {
      const res = await calls.upload(project.token, e.id, Buffer.from(xml), 'application/xml');
      expect({ xml, status: res.status }).toEqual({ xml, status: 201 });
    }
    expect(await rows(project.organization_id)).toBe(3);
  });

  it("names: no bidirectional controls, always the type's extension, a raw UTF-8 filename read as UTF-8 — as stored, listed and downloaded", async () => {
    const e = await entry();
    const cases: Array<[string, Buffer, string, string]> = [
      ['attachment; filename="faktura.hta"', PDF, 'application/pdf', 'faktura.pdf'],
      // "faktura-1042\u202Efdp.hta" shows as "faktura-1042ath.pdf" and saves a .hta
      [`attachment; filename*=UTF-8''${encodeURIComponent('faktura-1042\u202Efdp.hta')}`, PDF, 'application/pdf', 'faktura-1042fdp.pdf'],
      [
        `attachment; filename*=UTF-8''${encodeURIComponent('\u2067kvittering\u2069\u200e.png.exe')}`,
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]),
        'image/png',
        'kvittering.png.png',
      ],
      ['attachment; filename="scan.jpeg"', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg', 'scan.jpg'],
      ['attachment; filename="e-faktura"', Buffer.from(`<Invoice xmlns="${INVOICE_NS}"/>`), 'application/xml', 'e-faktura.xml'],
      // the header's bytes are UTF-8 (Node hands them over one character per byte)
      [`attachment; filename="${Buffer.from('æøå.pdf', 'utf8').toString('latin1')}"`, PDF, 'application/pdf', 'æøå.pdf'],
    ];
    for (const [disposition, bytes, type, name] of cases) {
      const res = await calls.upload(p.token, e.id, bytes, type, { disposition });
      expect({ disposition, status: res.status, filename: res.body.filename }).toEqual({ disposition, status: 201, filename: name });
      const download = await app.partner().get(`${SANDBOX}/journal/entries/${e.id}/attachments/${res.body.id}`).set('Authorization', `Bearer ${p.token}`);
      expect(download.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
    }
    const read = await app.partner().get(`${SANDBOX}/journal/entries/${e.id}`).set('Authorization', `Bearer ${p.token}`);
    expect(read.body.attachments.map((a: { filename: string }) => a.filename)).toEqual(cases.map((c) => c[3]));
    const stored: Array<{ filename: string }> = await db.query(`SELECT filename FROM attachments WHERE organization_id = $1 AND entry_id = $2`, [
      p.organization_id,
      e.id,
    ]);
    expect(stored.filter((s) => /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(s.filename))).toEqual([]);
  });

  /** A second approved app posting to `prod`'s organization, on the same accounts, with its own mandate. */
  const secondApp = async (prod: ProductionAccess) => {
    const other = await anApprovedApp(app);
    const owner = await anOwner(app, prod.organization.id);
    const grant = await consolePost(app, `/organizations/${prod.organization.id}/grants`, {
      app_id: other.id,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner),
      account_ids: prod.grantedAccountIds,
      scopes: ['journal:post', 'journal:read'],
    });
    expect(grant.status).toBe(201);
    expect(
      (
        await consolePost(app, `/organizations/${prod.organization.id}/mandates`, {
          app_id: other.id,
          owner_user_id: owner.user_id,
          totp_code: codeOf(owner, Date.now() + 30_000),
        })
      ).status,
    ).toBe(201);
    return aToken(app, grant.body.id);
  };

  it('issue 43 finding 8: an upload of bytes another app stored writes them as a first upload does: the same answer, and the content row written again', async () => {
    const prod = await aProductionAccess(app);
    expect(
      (
        await consolePost(app, `/organizations/${prod.organization.id}/mandates`, {
          app_id: prod.app.id,
          owner_user_id: prod.owner.user_id,
          totp_code: codeOf(prod.owner, Date.now() + 30_000),
        })
      ).status,
    ).toBe(201);
    const otherToken = await secondApp(prod);
    const bytes = Buffer.concat([PDF, Buffer.from(randomUUID())]);
    const content = async () =>
      (
        await db.query(`SELECT xmin::text AS version, size FROM attachment_contents WHERE organization_id = $1 AND sha256 = $2`, [
          prod.organization.id,
          sha(bytes),
        ])
      )[0];

    const mine = await calls.postEntry(prod.token, prod.grantedAccountIds, PRODUCTION);
    const first = await calls.upload(prod.token, mine.id, bytes, 'application/pdf', { base: PRODUCTION });
    expect(first.status).toBe(201);
    const written = await content();

    const theirs = await calls.postEntry(otherToken, prod.grantedAccountIds, PRODUCTION);
    const second = await calls.upload(otherToken, theirs.id, bytes, 'application/pdf', { base: PRODUCTION });
    expect(second.status).toBe(201);
    const keys = (b: Record<string, unknown>) => Object.keys(b).sort();
    expect(keys(second.body)).toEqual(keys(first.body));
    expect([second.body.size, second.body.sha256, second.body.replayed]).toEqual([first.body.size, first.body.sha256, false]);
    // stored once, and written again by the second upload (the same work as the first one's)
    const rewritten = await content();
    expect(rewritten.size).toBe(bytes.length);
    expect(rewritten.version).not.toBe(written.version);
    const download = await app
      .partner()
      .get(`${PRODUCTION}/journal/entries/${theirs.id}/attachments/${second.body.id}`)
      .set('Authorization', `Bearer ${otherToken}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(Buffer.compare(download.body as Buffer, bytes)).toBe(0);
  });
});

describe('the storage quota of sandbox projects and demo companies (CONTRACT §20 Storage, SANDBOX_STORAGE_MAX_BYTES)', () => {
  const MAX = 1000;
  let app: TestApp;
  let db: DataSource;
  let calls: ReturnType<typeof partnerCalls>;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    app = await createTestApp({ sandboxStorageMaxBytes: MAX }, { clock });
    db = app.apps.partner.get(DataSource);
    calls = partnerCalls(app);
  });
  afterAll(() => app.close());

  const everything = async (organizationId: string) => {
    const counts: Record<string, number> = {};
    for (const [name, sql] of [
      ['attachments', `SELECT count(*)::int AS n FROM attachments WHERE organization_id = $1`],
      ['contents', `SELECT count(*)::int AS n FROM attachment_contents WHERE organization_id = $1`],
      ['receipts', `SELECT count(*)::int AS n FROM operation_receipts WHERE organization_id = $1 AND kind = 'attachment.add'`],
      ['used', `SELECT coalesce((SELECT bytes FROM attachment_storage WHERE organization_id = $1), 0)::int AS n`],
    ] as const)
      counts[name] = (await db.query(sql, [organizationId]))[0].n;
    return counts;
  };
  const postingAccess = async (): Promise<ProductionAccess> => {
    const prod = await aProductionAccess(app, { nowMs: clock.nowMs() });
    expect(
      (
        await consolePost(app, `/organizations/${prod.organization.id}/mandates`, {
          app_id: prod.app.id,
          owner_user_id: prod.owner.user_id,
          totp_code: codeOf(prod.owner, clock.nowMs() + 30_000),
        })
      ).status,
    ).toBe(201);
    return prod;
  };

  it(`a sandbox project holds at most ${MAX} bytes: the file that would pass it is 403 quota_exceeded naming the limit, nothing stored; the same file twice counts twice; a replay is still answered`, async () => {
    const p = await aSandboxProject(app);
    const e = await calls.postEntry(
      p.token,
      p.accounts.map((a) => a.id),
    );
    const key = randomUUID();
    const first = await calls.upload(p.token, e.id, pdfOf(600), 'application/pdf', { key });
    expect(first.status).toBe(201);
    const before = await everything(p.organization_id);
    expect(before).toEqual({ attachments: 1, contents: 1, receipts: 1, used: 600 });
    // 600 + 401 > 1000, sent with its length (refused before the body is read) and chunked (refused once read)
    const over = await calls.upload(p.token, e.id, pdfOf(401), 'application/pdf');
    expect([over.status, over.body.code, over.body.title]).toEqual([403, 'quota_exceeded', 'Quota exceeded']);
    expect(over.body.detail).toContain(`${MAX} bytes`);
    expect(over.body.detail).toContain('SANDBOX_STORAGE_MAX_BYTES');
    // refused from its Content-Length: the rest of the body is not read, the connection closes after the answer
    expect(over.headers.connection).toBe('close');
    const chunked = await sendChunked(
      app,
      `${SANDBOX}/journal/entries/${e.id}/attachments`,
      {
        Authorization: `Bearer ${p.token}`,
        'Content-Type': 'application/pdf',
        'Idempotency-Key': randomUUID(),
      },
      pdfOf(401),
    );
    expect([chunked.status, chunked.body.code]).toEqual([403, 'quota_exceeded']);
    // the same bytes as stored already count again: the use tells nothing about what the organization holds
    const same = await calls.upload(p.token, e.id, pdfOf(600), 'application/pdf');
    expect([same.status, same.body.code]).toEqual([403, 'quota_exceeded']);
    expect(await everything(p.organization_id)).toEqual(before);
    // a replay of the first upload is its first answer, whatever the quota
    const replay = await calls.upload(p.token, e.id, pdfOf(600), 'application/pdf', { key });
    expect([replay.status, replay.body.replayed, replay.body.id]).toEqual([201, true, first.body.id]);
    // up to the limit exactly
    const fill = await calls.upload(p.token, e.id, pdfOf(400), 'application/pdf');
    expect(fill.status).toBe(201);
    const one = await calls.upload(p.token, e.id, Buffer.from('%PDF-'), 'application/pdf');
    expect([one.status, one.body.code]).toEqual([403, 'quota_exceeded']);
    expect(await everything(p.organization_id)).toEqual({ attachments: 2, contents: 2, receipts: 2, used: MAX });
  });

  it('twelve uploads at once to one sandbox project (four entries): exactly three of 300 bytes fit under 1000, the rest are 403 and store nothing', async () => {
    const p = await aSandboxProject(app);
    const entries = await Promise.all(
      [0, 1, 2, 3].map(() =>
        calls.postEntry(
          p.token,
          p.accounts.map((a) => a.id),
        ),
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        calls.upload(p.token, entries[i % 4].id, Buffer.concat([pdfOf(290), Buffer.from(String(i).padStart(10, '0'))]), 'application/pdf'),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 403).map((a) => a.body.code)).toEqual(Array(9).fill('quota_exceeded'));
    expect(await everything(p.organization_id)).toEqual({ attachments: 3, contents: 3, receipts: 3, used: 900 });
  });

  itOnPostgres('holds across two instances on one database: twelve uploads, alternating, exactly three fit', async () => {
    const other = await createTestApp({ sandboxStorageMaxBytes: MAX });
    try {
      const p = await aSandboxProject(app);
      const entries = await Promise.all(
        [0, 1, 2].map(() =>
          calls.postEntry(
            p.token,
            p.accounts.map((a) => a.id),
          ),
        ),
      );
      const instances = [calls, partnerCalls(other)];
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          instances[i % 2].upload(p.token, entries[i % 3].id, Buffer.concat([pdfOf(290), Buffer.from(String(i).padStart(10, '0'))]), 'application/pdf'),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(3).fill(201), ...Array(9).fill(403)]);
      expect(await everything(p.organization_id)).toEqual({ attachments: 3, contents: 3, receipts: 3, used: 900 });
    } finally {
      await other.close();
    }
  });

  it('a demo company has the quota; a production organization has none', async () => {
    const demo = await postingAccess();
    await db.query(`UPDATE organizations SET demo = true WHERE id = $1`, [demo.organization.id]);
    const demoEntry = await calls.postEntry(demo.token, demo.grantedAccountIds, PRODUCTION);
    expect((await calls.upload(demo.token, demoEntry.id, pdfOf(700), 'application/pdf', { base: PRODUCTION })).status).toBe(201);
    const refused = await calls.upload(demo.token, demoEntry.id, pdfOf(700), 'application/pdf', { base: PRODUCTION });
    expect([refused.status, refused.body.code]).toEqual([403, 'quota_exceeded']);
    expect(await everything(demo.organization.id)).toEqual({ attachments: 1, contents: 1, receipts: 1, used: 700 });

    const prod = await postingAccess();
    const e = await calls.postEntry(prod.token, prod.grantedAccountIds, PRODUCTION);
    for (const size of [700, 701, 702]) expect((await calls.upload(prod.token, e.id, pdfOf(size), 'application/pdf', { base: PRODUCTION })).status).toBe(201);
    // nothing is counted for it either
    expect(await everything(prod.organization.id)).toEqual({ attachments: 3, contents: 3, receipts: 3, used: 0 });
  });

  it("the developer console shows the sandbox's and the demo company's use against the quota, in both languages", async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    let page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(/id="sandbox-storage">([^<]*)</.exec(page)?.[1]).toBe('0 of 1,000 bytes used by attachments');
    expect(/id="demo-storage">([^<]*)</.exec(page)?.[1]).toBe('0 of 1,000 bytes used by attachments');
    const token =
      /id="issued-value">([^<]+)</.exec((await d.driver.post(`/developers/apps/${appId}/sandbox-token`, {})).text)?.[1] ??
      /id="issued-value">([^<]+)</.exec((await d.driver.get(`/developers/apps/${appId}`)).text)?.[1];
    expect(token).toMatch(/^hsk_/);
    const accounts = [...page.slice(page.indexOf('id="sandbox"'), page.indexOf('id="oauth"')).matchAll(/<code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
    const e = await calls.postEntry(token as string, accounts);
    expect((await calls.upload(token as string, e.id, pdfOf(640), 'application/pdf')).status).toBe(201);
    page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(/id="sandbox-storage">([^<]*)</.exec(page)?.[1]).toBe('640 of 1,000 bytes used by attachments');
    const danish = (await d.driver.get(`/developers/apps/${appId}?lang=da`)).text;
    expect(/id="sandbox-storage">([^<]*)</.exec(danish)?.[1]).toBe('Bilag fylder 640 af 1.000 byte');
  });
});
