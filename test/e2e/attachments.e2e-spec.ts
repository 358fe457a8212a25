import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { UploadBudget } from '../../src/modules/attachments/api/upload-body';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { anotherAppsToken, aProductionAccess, codeOf, consolePost } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-rest-of-png')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF')]);
const XML = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from('\r\n  <?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'),
]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function listening(app: TestApp): Promise<number> {
  const server = app.apps.partner.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('POST/GET {base}/journal/entries/{id}/attachments — voucher documentation (CONTRACT §17)', () => {
  let app: TestApp;
  let db: DataSource;
  let p: SandboxProject;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
    p = await aSandboxProject(app);
  });
  afterAll(() => app.close());

  const postEntry = async (project = p, posting_date = '2026-11-20') => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${project.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(
        aJournal(
          project.accounts.map((a) => a.id),
          { posting_date },
        ),
      );
    expect(res.status).toBe(201);
    return res.body as { id: string; voucher_number: number };
  };
  const upload = (entryId: string, bytes: Buffer, type: string, options: { key?: string; token?: string; disposition?: string; base?: string } = {}) => {
    const req = app
      .partner()
      .post(`${options.base ?? SANDBOX}/journal/entries/${entryId}/attachments`)
      .set('Authorization', `Bearer ${options.token ?? p.token}`)
      .set('Content-Type', type);
    if (options.key !== null) req.set('Idempotency-Key', options.key ?? randomUUID());
    if (options.disposition) req.set('Content-Disposition', options.disposition);
    return req.send(bytes);
  };
  const download = (entryId: string, attachmentId: string, token = p.token) =>
    app
      .partner()
      .get(`${SANDBOX}/journal/entries/${entryId}/attachments/${attachmentId}`)
      .set('Authorization', `Bearer ${token}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const attachmentRows = async (entryId: string) => Number((await db.query(`SELECT count(*) AS n FROM attachments WHERE entry_id = $1`, [entryId]))[0].n);
  /** Every row an upload writes, in the organization: a refused upload leaves none of them (no partial row). */
  const uploadRows = async (organizationId: string) => {
    const counts: Record<string, number> = {};
    for (const [name, sql] of [
      ['attachments', `SELECT count(*)::int AS n FROM attachments WHERE organization_id = $1`],
      ['contents', `SELECT count(*)::int AS n FROM attachment_contents WHERE organization_id = $1`],
      ['counters', `SELECT count(*)::int AS n FROM attachment_counters WHERE organization_id = $1`],
      ['receipts', `SELECT count(*)::int AS n FROM operation_receipts WHERE organization_id = $1 AND kind = 'attachment.add'`],
      ['records', `SELECT count(*)::int AS n FROM idempotency_records WHERE organization_id = $1`],
    ] as const)
      counts[name] = (await db.query(sql, [organizationId]))[0].n;
    return counts;
  };

  it('attaches a PDF: 201 with exactly the attachment, its operation and replayed; a receipt attachment.add and its event', async () => {
    const entry = await postEntry();
    const res = await upload(entry.id, PDF, 'application/pdf', { disposition: 'attachment; filename="faktura 2026-117.pdf"' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filename: 'faktura 2026-117.pdf',
      content_type: 'application/pdf',
      size: PDF.length,
      sha256: sha(PDF),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      operation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      replayed: false,
    });
    const receipt = await app.partner().get(`${SANDBOX}/operations/${res.body.operation_id}`).set('Authorization', `Bearer ${p.token}`);
    expect(receipt.body).toEqual({
      operation_id: res.body.operation_id,
      kind: 'attachment.add',
      status: 'completed',
      resource: { type: 'attachment', id: res.body.id },
      completed_at: res.body.created_at,
      environment: 'sandbox',
    });
    let event: unknown;
    await eventually(async () => {
      const feed = await app.partner().get(`${SANDBOX}/events`).query({ limit: '100' }).set('Authorization', `Bearer ${p.token}`);
      event = feed.body.data.find((e: { data: { operation_id: string } }) => e.data.operation_id === res.body.operation_id);
      return event !== undefined;
    }, 'the attachment.add event in the feed');
    expect(event).toMatchObject({ type: 'operation.completed', data: receipt.body });
    const read = await app.partner().get(`${SANDBOX}/journal/entries/${entry.id}`).set('Authorization', `Bearer ${p.token}`);
    const { operation_id: _o, replayed: _r, ...attachment } = res.body;
    expect(read.body.attachments).toEqual([attachment]);
  });

  it('downloads the exact bytes with its headers, and 304 for its ETag', async () => {
    const entry = await postEntry();
    const added = await upload(entry.id, PDF, 'application/pdf', { disposition: "attachment; filename*=UTF-8''Kvittering%20%C3%A6%C3%B8%C3%A5.pdf" });
    expect(added.status).toBe(201);
    expect(added.body.filename).toBe('Kvittering æøå.pdf');
    const res = await download(entry.id, added.body.id);
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, PDF)).toBe(0);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(PDF.length));
    expect(res.headers['content-disposition']).toBe("attachment; filename*=UTF-8''Kvittering%20%C3%A6%C3%B8%C3%A5.pdf");
    expect(res.headers.etag).toBe(`"${sha(PDF)}"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    const again = await download(entry.id, added.body.id).set('If-None-Match', `"${sha(PDF)}"`);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(`"${sha(PDF)}"`);
    expect((again.body as Buffer).length).toBe(0);
    const other = await download(entry.id, added.body.id).set('If-None-Match', `"${'0'.repeat(64)}"`);
    expect(other.status).toBe(200);
  });

  it('downloads a file larger than one read piece (1 MB) whole, in order', async () => {
    const entry = await postEntry();
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), ...Array.from({ length: 2600 }, (_, i) => Buffer.from(`${String(i).padStart(999, '.')}\n`))]);
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const added = await upload(entry.id, big, 'application/pdf');
    expect([added.status, added.body.size, added.body.sha256]).toEqual([201, big.length, sha(big)]);
    const res = await download(entry.id, added.body.id);
    expect(res.headers['content-length']).toBe(String(big.length));
    expect(sha(res.body as Buffer)).toBe(sha(big));
  });

  it('names a file without a Content-Disposition bilag-<year>-<number>-<n>.<ext>, and keeps a given name without path or control characters', async () => {
    const entry = await postEntry(p, '2025-06-30');
    const first = await upload(entry.id, PDF, 'application/pdf');
    const second = await upload(entry.id, PNG, 'image/png');
    const third = await upload(entry.id, JPEG, 'image/jpeg; charset=binary');
    const fourth = await upload(entry.id, XML, 'application/xml');
    expect([first.body.filename, second.body.filename, third.body.filename, fourth.body.filename]).toEqual([
      `bilag-2025-${entry.voucher_number}-1.pdf`,
      `bilag-2025-${entry.voucher_number}-2.png`,
      `bilag-2025-${entry.voucher_number}-3.jpg`,
      `bilag-2025-${entry.voucher_number}-4.xml`,
    ]);
    const pathy = await upload(entry.id, PDF, 'application/pdf', { disposition: "attachment; filename*=UTF-8''..%2F..%2Fetc%2Fkv%01it%7Fter%0Aing.pdf" });
    expect(pathy.status).toBe(201);
    expect(pathy.body.filename).toBe('kvittering.pdf');
    const windows = await upload(entry.id, PDF, 'application/pdf', { disposition: 'attachment; filename="C:\\\\Users\\\\bo\\\\bon.pdf"' });
    expect(windows.body.filename).toBe('bon.pdf');
    const long = await upload(entry.id, PDF, 'application/pdf', { disposition: `attachment; filename="${'å'.repeat(300)}.pdf"` });
    expect(long.status).toBe(201);
    expect([...long.body.filename]).toHaveLength(255);
    // a header that names nothing usable leaves the default name
    const bad = await upload(entry.id, PDF, 'application/pdf', { disposition: 'attachment; filename="unterminated' });
    expect([bad.status, bad.body.filename]).toEqual([201, `bilag-2025-${entry.voucher_number}-8.pdf`]);
    expect(await attachmentRows(entry.id)).toBe(8);
  });

  it('refuses bytes that do not match the type (415), an unknown type (415), an empty body (400): nothing stored', async () => {
    const project = await aSandboxProject(app);
    const entry = await postEntry(project);
    const before = await uploadRows(project.organization_id);
    const cases: Array<[Buffer, string, number, string]> = [
      [PNG, 'application/pdf', 415, 'unsupported_media_type'],
      [Buffer.from('hello, this is text'), 'image/jpeg', 415, 'unsupported_media_type'],
      [PDF, 'image/png', 415, 'unsupported_media_type'],
      [Buffer.from('   not xml'), 'application/xml', 415, 'unsupported_media_type'],
      [PDF, 'text/plain', 415, 'unsupported_media_type'],
      [PDF, 'application/octet-stream', 415, 'unsupported_media_type'],
      [Buffer.alloc(0), 'application/pdf', 400, 'invalid_input'],
    ];
    for (const [bytes, type, status, code] of cases) {
      const res = await upload(entry.id, bytes, type, { token: project.token });
      expect({ type, status: res.status, code: res.body.code }).toEqual({ type, status, code });
    }
    const none = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${entry.id}/attachments`)
      .set('Authorization', `Bearer ${project.token}`)
      .set('Idempotency-Key', randomUUID());
    expect([none.status, none.body.code]).toEqual([415, 'unsupported_media_type']);
    expect(await attachmentRows(entry.id)).toBe(0);
    // no partial row: no content, no counter, no receipt, no idempotency record beyond the posting's
    expect(await uploadRows(project.organization_id)).toEqual({ ...before, attachments: 0, contents: 0, counters: 0, receipts: 0 });
  });

  it('exactly once per Idempotency-Key: same bytes replay, other bytes 409; the same file twice is stored once', async () => {
    const entry = await postEntry();
    const key = randomUUID();
    const first = await upload(entry.id, PDF, 'application/pdf', { key });
    const replay = await upload(entry.id, PDF, 'application/pdf', { key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
    const other = await upload(entry.id, Buffer.concat([PDF, Buffer.from('x')]), 'application/pdf', { key });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency_key_reused']);
    const missing = await upload(entry.id, PDF, 'application/pdf', { key: null as unknown as string });
    expect([missing.status, missing.body.code]).toEqual([400, 'idempotency_key_required']);
    const again = await upload(entry.id, PDF, 'application/pdf');
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    expect(await attachmentRows(entry.id)).toBe(2);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM attachment_contents WHERE organization_id = $1 AND sha256 = $2`, [
      p.organization_id,
      sha(PDF),
    ]);
    expect(n).toBe(1);
  });

  it('ten concurrent identical uploads under one key store one attachment', async () => {
    const entry = await postEntry();
    const key = randomUUID();
    const bytes = Buffer.concat([PDF, Buffer.from(randomUUID())]);
    const answers = await Promise.all(Array.from({ length: 10 }, () => upload(entry.id, bytes, 'application/pdf', { key })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
    expect(await attachmentRows(entry.id)).toBe(1);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM operation_receipts WHERE resource_id = $1`, [answers[0].body.id]);
    expect(n).toBe(1);
  });

  it('refuses the 21st attachment of an entry with 409 resource_conflict, also when they come at once', async () => {
    const entry = await postEntry();
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => upload(entry.id, Buffer.concat([PDF, Buffer.from(String(i))]), 'application/pdf')));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(4).fill('resource_conflict'));
    const names = answers
      .filter((a) => a.status === 201)
      .map((a) => a.body.filename as string)
      .sort();
    expect(new Set(names).size).toBe(20);
    expect(await attachmentRows(entry.id)).toBe(20);
    const late = await upload(entry.id, PDF, 'application/pdf');
    expect([late.status, late.body.code]).toEqual([409, 'resource_conflict']);
  });

  it("answers 404 for another app's or project's entry, the other environment's, a non-uuid, and an attachment of another entry", async () => {
    const other = await aSandboxProject(app);
    const theirs = await postEntry(other);
    const mine = await postEntry();
    const mineToo = await postEntry();
    const added = await upload(mine.id, PDF, 'application/pdf');
    const prod = await aProductionAccess(app);
    for (const [base, token, id] of [
      [SANDBOX, p.token, theirs.id],
      [SANDBOX, p.token, randomUUID()],
      [SANDBOX, p.token, 'nope'],
      [PRODUCTION, prod.token, mine.id],
    ] as const) {
      const res = await upload(id, PDF, 'application/pdf', { token, base });
      expect({ id, status: res.status, code: res.body.code, detail: res.body.detail }).toEqual({
        id,
        status: 404,
        code: 'not_found',
        detail: 'No such journal entry',
      });
    }
    const refused = async (entryId: string, attachmentId: string, token = p.token) => {
      const res = await download(entryId, attachmentId, token);
      return [res.status, JSON.parse(String(res.body)).detail];
    };
    // an entry that is not the caller's is refused as the entry read refuses it; then the attachment
    expect(await refused(mine.id, added.body.id, other.token)).toEqual([404, 'No such journal entry']);
    expect(await refused(theirs.id, added.body.id)).toEqual([404, 'No such journal entry']);
    expect(await refused('nope', added.body.id)).toEqual([404, 'No such journal entry']);
    expect(await refused(mineToo.id, added.body.id)).toEqual([404, 'No such attachment']);
    expect(await refused(theirs.id, added.body.id, other.token)).toEqual([404, 'No such attachment']);
    expect(await refused(mine.id, 'nope')).toEqual([404, 'No such attachment']);
    expect(await refused(mine.id, randomUUID())).toEqual([404, 'No such attachment']);
    expect(await attachmentRows(theirs.id)).toBe(0);
  });

  it('answers 404 for an entry another app posted to the same organization, with the same body, and stores nothing', async () => {
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
    const posted = await app
      .partner()
      .post(`${PRODUCTION}/journal`)
      .set('Authorization', `Bearer ${prod.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(prod.grantedAccountIds));
    expect(posted.status).toBe(201);
    // another app, granted journal:post and journal:read on the same organization and accounts
    const otherToken = await anotherAppsToken(app, prod, ['journal:post', 'journal:read']);
    const before = await uploadRows(prod.organization.id);
    const res = await upload(posted.body.id, PDF, 'application/pdf', { token: otherToken, base: PRODUCTION });
    expect({ status: res.status, code: res.body.code, detail: res.body.detail }).toEqual({ status: 404, code: 'not_found', detail: 'No such journal entry' });
    expect(await uploadRows(prod.organization.id)).toEqual(before);
    // the posting app itself attaches; the other app cannot download it either
    const own = await upload(posted.body.id, PDF, 'application/pdf', { token: prod.token, base: PRODUCTION });
    expect(own.status).toBe(201);
    const get = await app
      .partner()
      .get(`${PRODUCTION}/journal/entries/${posted.body.id}/attachments/${own.body.id}`)
      .set('Authorization', `Bearer ${otherToken}`);
    expect([get.status, get.body.detail]).toEqual([404, 'No such journal entry']);
  });

  it('needs journal:post to attach and journal:read to download', async () => {
    const reader = await aProductionAccess(app, { scopes: ['journal:read'] });
    const res = await upload(randomUUID(), PDF, 'application/pdf', { token: reader.token, base: PRODUCTION });
    expect([res.status, res.body.code]).toEqual([403, 'insufficient_scope']);
    const poster = await aProductionAccess(app, { scopes: ['journal:post'] });
    const get = await app
      .partner()
      .get(`${PRODUCTION}/journal/entries/${randomUUID()}/attachments/${randomUUID()}`)
      .set('Authorization', `Bearer ${poster.token}`);
    expect([get.status, get.body.code]).toEqual([403, 'insufficient_scope']);
  });

  it('an upload whose connection drops halfway stores nothing and gives its budget back', async () => {
    const entry = await postEntry();
    const port = await listening(app);
    const budget = app.apps.partner.get(UploadBudget);
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${SANDBOX}/journal/entries/${entry.id}/attachments`,
        headers: { Authorization: `Bearer ${p.token}`, 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/pdf', 'Content-Length': String(100_000) },
      });
      req.on('error', () => resolve());
      req.write(Buffer.concat([PDF, Buffer.alloc(40_000, 0x20)]));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await eventually(() => budget.bytesInFlight === 0, 'the budget given back');
    expect(budget.bytesInFlight).toBe(0);
    expect(await attachmentRows(entry.id)).toBe(0);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM attachment_counters WHERE entry_id = $1`, [entry.id]);
    expect(n).toBe(0);
  });
});

describe('upload limits: ATTACHMENT_MAX_BYTES (413) and the instance share of upload bytes (503)', () => {
  const MAX = 1000;
  let app: TestApp;
  let p: SandboxProject;
  let entryId: string;

  beforeAll(async () => {
    app = await createTestApp({ attachmentMaxBytes: MAX });
    p = await aSandboxProject(app);
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    entryId = res.body.id;
  });
  afterAll(() => app.close());

  const sized = (n: number) => Buffer.concat([PDF, Buffer.alloc(n - PDF.length, 0x20)]);

  it('accepts exactly ATTACHMENT_MAX_BYTES and refuses one byte more with 413, also sent chunked', async () => {
    const ok = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${entryId}/attachments`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .send(sized(MAX));
    expect([ok.status, ok.body.size]).toEqual([201, MAX]);
    const over = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${entryId}/attachments`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .send(sized(MAX + 1));
    expect([over.status, over.body.code]).toEqual([413, 'payload_too_large']);

    const port = await listening(app);
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${SANDBOX}/journal/entries/${entryId}/attachments`,
          headers: { Authorization: `Bearer ${p.token}`, 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/pdf', 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(sized(600));
      req.write(sized(600));
      // never ended: the answer must come without the rest of the body
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).code).toBe('payload_too_large');
    // neither refused upload left a row: the one attachment is the accepted one (its number 1, its receipt)
    const db = app.apps.partner.get(DataSource);
    const [rows] = await db.query(
      `SELECT (SELECT count(*)::int FROM attachments WHERE entry_id = $1) AS attachments,
              (SELECT count(*)::int FROM attachment_contents WHERE organization_id = $2) AS contents,
              (SELECT count(*)::int FROM operation_receipts WHERE organization_id = $2 AND kind = 'attachment.add') AS receipts`,
      [entryId, p.organization_id],
    );
    expect(rows).toEqual({ attachments: 1, contents: 1, receipts: 1 });
  });

  it('refuses an upload beyond the instance share with 503 and Retry-After, and takes uploads again once they finish', async () => {
    const port = await listening(app);
    const budget = app.apps.partner.get(UploadBudget);
    // CONTRACT §20: the share is charged with the bytes received, so each held upload sends all but its last byte
    const held = Array.from({ length: Math.floor(budget.limitBytes / MAX) }, () => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${SANDBOX}/journal/entries/${entryId}/attachments`,
        headers: { Authorization: `Bearer ${p.token}`, 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/pdf', 'Content-Length': String(MAX) },
      });
      req.on('error', () => undefined);
      req.write(sized(MAX - 1));
      return req;
    });
    await eventually(() => budget.bytesInFlight === held.length * (MAX - 1), 'the held uploads to take the share but a byte each');
    const refused = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${entryId}/attachments`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .send(sized(100));
    expect([refused.status, refused.body.code]).toEqual([503, 'service_unavailable']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    for (const req of held) req.destroy();
    await eventually(() => budget.bytesInFlight === 0, 'the budget given back');
    expect(budget.bytesInFlight).toBe(0);
    const accepted = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${entryId}/attachments`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .send(sized(100));
    expect(accepted.status).toBe(201);
  });
});
