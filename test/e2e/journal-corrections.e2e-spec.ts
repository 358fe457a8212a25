import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { anotherAppsToken, aProductionAccess, codeOf, consolePost, type ProductionAccess } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

type Body = Record<string, unknown>;

/** CONTRACT §19: corrections as new entries, batch posting, and who registered an entry. */
describe('corrections, batch posting and registered_by (CONTRACT §19)', () => {
  let app: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  const ids = (p: SandboxProject) => p.accounts.map((a) => a.id);
  const send = (path: string, token: string, body: unknown, key: string | null = randomUUID()) => {
    let req = app.partner().post(path).set('Authorization', `Bearer ${token}`);
    if (key !== null) req = req.set('Idempotency-Key', key);
    return req.send(body as object);
  };
  const get = (path: string, token: string) => app.partner().get(path).set('Authorization', `Bearer ${token}`);
  const post = async (p: SandboxProject, body: Body = aJournal(ids(p))) => {
    const res = await send(`${SANDBOX}/journal`, p.token, body);
    expect(res.status).toBe(201);
    return res.body as { id: string; voucher_number: number; operation_id: string };
  };
  const reverse = (p: { token: string }, id: string, body: Body, key: string | null = randomUUID(), base = SANDBOX) =>
    send(`${base}/journal/entries/${id}/reversal`, p.token, body, key);
  const batch = (p: { token: string }, journals: unknown[], key: string | null = randomUUID(), base = SANDBOX) =>
    send(`${base}/journal/batch`, p.token, { journals }, key);
  const entryCount = async (organizationId: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM journal_entries WHERE organization_id = $1`, [organizationId]))[0].n as number;
  const withMandate = async (access: ProductionAccess) => {
    const mandate = await consolePost(app, `/organizations/${access.organization.id}/mandates`, {
      app_id: access.app.id,
      owner_user_id: access.owner.user_id,
      totp_code: codeOf(access.owner, Date.now() + 30_000),
    });
    expect(mandate.status).toBe(201);
  };

  describe('POST {base}/journal/entries/{id}/reversal', () => {
    it('posts the lines in their order with debit and credit swapped, under the next voucher number; both entries name each other', async () => {
      const p = await aSandboxProject(app);
      const [a, b] = p.accounts;
      const original = await post(p, {
        posting_date: '2026-03-10',
        transaction_date: '2026-03-09',
        description: 'Forkert beløb',
        lines: [
          { account_id: a.id, debit_minor: 700, line_text: 'varer', dimension_refs: [{ dept: 1 }], tax_code_id: p.tax_codes[0].id },
          { account_id: b.id, credit_minor: 500 },
          { account_id: b.id, credit_minor: 200, line_text: 'fragt' },
        ],
      });
      const res = await reverse(p, original.id.toUpperCase(), { posting_date: '2026-03-10' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id', 'voucher_year', 'voucher_number', 'operation_id', 'replayed', 'environment', 'reverses']);
      expect(res.body).toEqual({
        id: expect.any(String),
        voucher_year: 2026,
        voucher_number: original.voucher_number + 1,
        operation_id: expect.any(String),
        replayed: false,
        environment: 'sandbox',
        reverses: original.id,
      });
      const reversal = await get(`${SANDBOX}/journal/entries/${res.body.id}`, p.token);
      expect(reversal.status).toBe(200);
      expect(reversal.body).toMatchObject({
        id: res.body.id,
        voucher_year: 2026,
        voucher_number: original.voucher_number + 1,
        posting_date: '2026-03-10',
        description: `Tilbageførsel af bilag 2026-${original.voucher_number}`,
        currency: 'DKK',
        lines: [
          { account_id: a.id, debit_minor: 0, credit_minor: 700, tax_code_id: p.tax_codes[0].id, dimension_refs: [{ dept: 1 }], line_text: 'varer' },
          { account_id: b.id, debit_minor: 500, credit_minor: 0, tax_code_id: null, dimension_refs: [], line_text: null },
          { account_id: b.id, debit_minor: 200, credit_minor: 0, tax_code_id: null, dimension_refs: [], line_text: 'fragt' },
        ],
        operation_id: res.body.operation_id,
        reverses: original.id,
        reversed_by: null,
      });
      const reversed = await get(`${SANDBOX}/journal/entries/${original.id}`, p.token);
      expect(reversed.body).toMatchObject({ reverses: null, reversed_by: res.body.id });
      // the next posting takes the next number: nothing skipped
      expect((await post(p)).voucher_number).toBe(original.voucher_number + 2);
    });

    it('takes a description of 1–1000 characters, and answers a bad body with 400 at its pointer', async () => {
      const p = await aSandboxProject(app);
      const original = await post(p);
      const bad = await reverse(p, original.id, { posting_date: '2026-13-01', description: '', colour: 'red' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/colour', '/description', '/posting_date']);
      const missing = await reverse(p, original.id, {});
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: '/posting_date', code: 'invalid_input' })]);
      const long = await reverse(p, original.id, { posting_date: '2026-11-20', description: 'x'.repeat(1001) });
      expect(long.status).toBe(400);
      const ok = await reverse(p, original.id, { posting_date: '2026-11-20', description: 'Rettelse' });
      expect(ok.status).toBe(201);
      expect((await get(`${SANDBOX}/journal/entries/${ok.body.id}`, p.token)).body.description).toBe('Rettelse');
    });

    it("answers a posting_date before the reversed entry's with 422 invalid_input at /posting_date, storing nothing", async () => {
      const p = await aSandboxProject(app);
      const original = await post(p, aJournal(ids(p), { posting_date: '2026-05-02' }));
      const res = await reverse(p, original.id, { posting_date: '2026-05-01' });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'invalid_input', status: 422 });
      expect(res.body.errors).toEqual([{ pointer: '/posting_date', code: 'invalid_input', detail: expect.any(String) }]);
      expect(await entryCount(p.organization_id)).toBe(1);
      // a reversal into a later year numbers from that year's counter
      const later = await reverse(p, original.id, { posting_date: '2027-01-02' });
      expect(later.body).toMatchObject({ voucher_year: 2027, voucher_number: 1 });
    });

    it('replays under its key (201, replayed, no environment); another body under the key is 409 idempotency_key_reused', async () => {
      const p = await aSandboxProject(app);
      const original = await post(p);
      const key = randomUUID();
      const first = await reverse(p, original.id, { posting_date: '2026-11-20' }, key);
      const again = await reverse(p, original.id, { posting_date: '2026-11-20' }, key);
      expect(again.status).toBe(201);
      const { environment: _e, ...rest } = first.body;
      expect(again.body).toEqual({ ...rest, replayed: true });
      const other = await reverse(p, original.id, { posting_date: '2026-11-21' }, key);
      expect(other.status).toBe(409);
      expect(other.body.code).toBe('idempotency_key_reused');
      const missingKey = await reverse(p, original.id, { posting_date: '2026-11-20' }, null);
      expect(missingKey.status).toBe(400);
      expect(missingKey.body.code).toBe('idempotency_key_required');
    });

    it('409 resource_conflict for an entry already reversed and for a reversal itself; nothing stored, no number used', async () => {
      const p = await aSandboxProject(app);
      const original = await post(p);
      const first = await reverse(p, original.id, { posting_date: '2026-11-20' });
      expect(first.status).toBe(201);
      const twice = await reverse(p, original.id, { posting_date: '2026-11-20' });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('resource_conflict');
      const ofReversal = await reverse(p, first.body.id, { posting_date: '2026-11-20' });
      expect(ofReversal.status).toBe(409);
      expect(ofReversal.body.code).toBe('resource_conflict');
      expect(await entryCount(p.organization_id)).toBe(2);
      expect((await post(p)).voucher_number).toBe(3);
    });

    it('exactly one of two concurrent reversals under different keys succeeds, the other is 409', async () => {
      const p = await aSandboxProject(app);
      const original = await post(p);
      const answers = await Promise.all([1, 2, 3].map(() => reverse(p, original.id, { posting_date: '2026-11-20' })));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
      expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(['resource_conflict', 'resource_conflict']);
      expect((await post(p)).voucher_number).toBe(3);
    });

    it("404 not_found for another app's or project's entry, an unknown id and a non-uuid; 422 period_locked into a closed month", async () => {
      const p = await aSandboxProject(app);
      const other = await aSandboxProject(app);
      const theirs = await post(other);
      for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
        const res = await reverse(p, id, { posting_date: '2026-11-20' });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
      const original = await post(p, aJournal(ids(p), { posting_date: '2026-01-10' }));
      expect((await consolePost(app, `/organizations/${p.organization_id}/periods/2026-02/close`)).status).toBe(200);
      const locked = await reverse(p, original.id, { posting_date: '2026-02-01' });
      expect(locked.status).toBe(422);
      expect(locked.body.code).toBe('period_locked');
      expect((await reverse(p, original.id, { posting_date: '2026-03-01' })).status).toBe(201);
      expect(await entryCount(p.organization_id)).toBe(2);
    });

    it('stores a receipt journal.reverse of the new entry, with its operation.completed in the events feed', async () => {
      const p = await aSandboxProject(app);
      const original = await post(p);
      const res = await reverse(p, original.id, { posting_date: '2026-11-20' });
      const receipt = await get(`${SANDBOX}/operations/${res.body.operation_id}`, p.token);
      expect(receipt.status).toBe(200);
      expect(receipt.body).toMatchObject({ kind: 'journal.reverse', status: 'completed', resource: { type: 'journal_entry', id: res.body.id } });
      let event: unknown;
      await eventually(async () => {
        const feed = await get(`${SANDBOX}/events?limit=100`, p.token);
        event = (feed.body.data as Array<{ data: { operation_id: string } }>).find((e) => e.data.operation_id === res.body.operation_id);
        return event !== undefined;
      }, "the reversal's event in the feed");
      expect(event).toMatchObject({ type: 'operation.completed', data: receipt.body });
    });

    it('production: needs journal:post and the mandate (another app of the organization without one is refused before it learns of the entry)', async () => {
      const access = await aProductionAccess(app);
      await withMandate(access);
      const posted = await send(`${PRODUCTION}/journal`, access.token, aJournal(access.grantedAccountIds));
      expect(posted.status).toBe(201);
      const readOnly = await anotherAppsToken(app, access, ['journal:read']);
      const scope = await reverse({ token: readOnly }, posted.body.id, { posting_date: '2026-11-20' }, randomUUID(), PRODUCTION);
      expect(scope.status).toBe(403);
      expect(scope.body.code).toBe('insufficient_scope');
      const otherApp = await anotherAppsToken(app, access, ['journal:post', 'journal:read']);
      const foreign = await reverse({ token: otherApp }, posted.body.id, { posting_date: '2026-11-20' }, randomUUID(), PRODUCTION);
      // the other app holds no mandate: refused before it could learn anything of the entry
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe('mandate_required');
      const ok = await reverse(access, posted.body.id, { posting_date: '2026-11-20' }, randomUUID(), PRODUCTION);
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ environment: 'production', voucher_number: 2, reverses: posted.body.id });
    });
  });

  it('has no route that changes or deletes an entry or an attachment: PUT, PATCH and DELETE are 404 not_found', async () => {
    const p = await aSandboxProject(app);
    const posted = await post(p);
    const attached = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${posted.id}/attachments`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from('%PDF-1.4\n'));
    expect(attached.status).toBe(201);
    for (const path of [`/journal/entries/${posted.id}`, `/journal/entries/${posted.id}/attachments/${attached.body.id}`]) {
      for (const method of ['put', 'patch', 'delete'] as const) {
        const res = await app.partner()[method](`${SANDBOX}${path}`).set('Authorization', `Bearer ${p.token}`).send({ description: 'x' });
        expect([method, res.status, res.body.code]).toEqual([method, 404, 'not_found']);
      }
    }
    expect((await get(`${SANDBOX}/journal/entries/${posted.id}`, p.token)).body.description).toBeNull();
  });

  it('answers a reversal and a batch without an active posting mandate with 403 mandate_required, posting nothing', async () => {
    const p = await aSandboxProject(app);
    const original = await post(p);
    const [mandate] = await db.query(`SELECT id FROM mandates WHERE organization_id = $1 AND revoked_at IS NULL`, [p.organization_id]);
    expect((await consolePost(app, `/mandates/${mandate.id}/revoke`)).status).toBe(200);
    const reversal = await reverse(p, original.id, { posting_date: '2026-11-20' });
    const posted = await batch(p, [aJournal(ids(p))]);
    expect([reversal.status, reversal.body.code, posted.status, posted.body.code]).toEqual([403, 'mandate_required', 403, 'mandate_required']);
    expect(await entryCount(p.organization_id)).toBe(1);
  });

  describe('registered_by on entry reads', () => {
    it('names the app and (production) the grant, as they were at posting: a later rename of the app changes nothing', async () => {
      const access = await aProductionAccess(app);
      await withMandate(access);
      const posted = await send(`${PRODUCTION}/journal`, access.token, aJournal(access.grantedAccountIds));
      const [{ name }] = await db.query(`SELECT name FROM apps WHERE id = $1`, [access.app.id]);
      await db.query(`UPDATE apps SET name = 'Omdøbt' WHERE id = $1`, [access.app.id]);
      const read = await get(`${PRODUCTION}/journal/entries/${posted.body.id}`, access.token);
      expect(read.status).toBe(200);
      expect(read.body.registered_by).toEqual({ app_id: access.app.id, app_name: name, grant_id: access.grant.id });
      expect(name).not.toBe('Omdøbt');
      const listed = await get(`${PRODUCTION}/journal/entries`, access.token);
      expect(listed.body.data[0]).toEqual(read.body);
    });

    it("sandbox: the project's app, grant_id null", async () => {
      const p = await aSandboxProject(app);
      const posted = await post(p);
      const read = await get(`${SANDBOX}/journal/entries/${posted.id}`, p.token);
      const [{ name }] = await db.query(`SELECT name FROM apps WHERE id = $1`, [p.app_id]);
      expect(read.body.registered_by).toEqual({ app_id: p.app_id, app_name: name, grant_id: null });
      expect(read.body).toMatchObject({ reverses: null, reversed_by: null });
    });
  });

  describe('POST {base}/journal/batch', () => {
    it('posts every journal with consecutive voucher numbers per year in input order; one receipt journal.batch; each entry readable and listed', async () => {
      const p = await aSandboxProject(app);
      expect((await post(p, aJournal(ids(p), { posting_date: '2026-01-05' }))).voucher_number).toBe(1);
      const dates = ['2026-02-01', '2025-12-31', '2026-02-02', '2025-06-01', '2026-03-03'];
      const journals = dates.map((posting_date, i) => ({ ...aJournal(ids(p), { posting_date, amount: 100 + i }), description: `nr ${i}` }));
      const res = await batch(p, journals);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['entries', 'operation_id', 'replayed', 'environment']);
      expect(res.body).toMatchObject({ replayed: false, environment: 'sandbox' });
      const entries = res.body.entries as Array<{ id: string; voucher_year: number; voucher_number: number }>;
      expect(entries.map((e) => [e.voucher_year, e.voucher_number])).toEqual([
        [2026, 2],
        [2025, 1],
        [2026, 3],
        [2025, 2],
        [2026, 4],
      ]);
      expect(entries.every((e) => Object.keys(e).join() === 'id,voucher_year,voucher_number')).toBe(true);
      for (const [i, e] of entries.entries()) {
        const read = await get(`${SANDBOX}/journal/entries/${e.id}`, p.token);
        expect(read.body).toMatchObject({ ...e, posting_date: dates[i], description: `nr ${i}`, operation_id: res.body.operation_id, reverses: null });
        expect(read.body.lines).toEqual([
          expect.objectContaining({ debit_minor: 100 + i, credit_minor: 0 }),
          expect.objectContaining({ debit_minor: 0, credit_minor: 100 + i }),
        ]);
      }
      const listed = await get(`${SANDBOX}/journal/entries?limit=100`, p.token);
      expect(
        listed.body.data
          .map((e: { id: string }) => e.id)
          .slice(1)
          .sort(),
      ).toEqual(entries.map((e) => e.id).sort());
      const receipt = await get(`${SANDBOX}/operations/${res.body.operation_id}`, p.token);
      expect(receipt.body).toMatchObject({ kind: 'journal.batch', resource: { type: 'journal_batch', id: res.body.operation_id } });
      let events: Array<{ data: { operation_id: string; kind: string } }> = [];
      await eventually(async () => {
        events = (await get(`${SANDBOX}/events?limit=100`, p.token)).body.data;
        return events.length >= 2;
      }, 'both events in the feed');
      expect(events.map((e) => e.data.kind)).toEqual(['journal.post', 'journal.batch']);
      expect((await post(p, aJournal(ids(p), { posting_date: '2026-12-01' }))).voucher_number).toBe(5);
    });

    it('replays under its key; another batch under the key is 409 idempotency_key_reused and posts nothing', async () => {
      const p = await aSandboxProject(app);
      const key = randomUUID();
      const journals = [aJournal(ids(p)), aJournal(ids(p))];
      const first = await batch(p, journals, key);
      expect(first.status).toBe(201);
      const again = await batch(p, journals, key);
      expect(again.status).toBe(201);
      expect(again.body).toEqual({ entries: first.body.entries, operation_id: first.body.operation_id, replayed: true });
      const other = await batch(p, [aJournal(ids(p)), aJournal(ids(p)), aJournal(ids(p))], key);
      expect(other.status).toBe(409);
      expect(other.body.code).toBe('idempotency_key_reused');
      expect(await entryCount(p.organization_id)).toBe(2);
      expect((await post(p)).voucher_number).toBe(3);
    });

    it('answers 0 and 101 journals with 400 at /journals, and a bad line of journal 57 at its own pointer; nothing posted, no number used', async () => {
      const p = await aSandboxProject(app);
      const none = await batch(p, []);
      expect(none.status).toBe(400);
      expect(none.body.errors).toEqual([expect.objectContaining({ pointer: '/journals', code: 'invalid_input' })]);
      const tooMany = await batch(
        p,
        Array.from({ length: 101 }, () => aJournal(ids(p))),
      );
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errors).toEqual([expect.objectContaining({ pointer: '/journals', code: 'invalid_input' })]);
      const journals: Body[] = Array.from({ length: 60 }, () => aJournal(ids(p)));
      journals[57] = {
        ...aJournal(ids(p)),
        lines: [
          { account_id: ids(p)[0], debit_minor: 5, credit_minor: 5 },
          { account_id: ids(p)[1], credit_minor: 'x' },
        ],
      };
      const badLine = await batch(p, journals);
      expect(badLine.status).toBe(400);
      expect(badLine.body.code).toBe('invalid_input');
      expect(badLine.body.errors).toEqual([
        expect.objectContaining({ pointer: '/journals/57/lines/0', code: 'invalid_input' }),
        expect.objectContaining({ pointer: '/journals/57/lines/1/credit_minor', code: 'invalid_amount' }),
      ]);
      expect(await entryCount(p.organization_id)).toBe(0);
      expect((await post(p)).voucher_number).toBe(1);
    });

    it('answers one unbalanced journal with 422 journal_unbalanced naming its place, and a reference not allowed in journal 3 at /journals/3/…', async () => {
      const p = await aSandboxProject(app);
      const other = await aSandboxProject(app);
      const journals: Body[] = Array.from({ length: 5 }, () => aJournal(ids(p)));
      journals[2] = {
        posting_date: '2026-11-20',
        lines: [
          { account_id: ids(p)[0], debit_minor: 5 },
          { account_id: ids(p)[1], credit_minor: 4 },
        ],
      };
      const unbalanced = await batch(p, journals);
      expect(unbalanced.status).toBe(422);
      expect(unbalanced.body.code).toBe('journal_unbalanced');
      expect(unbalanced.body.detail).toContain('/journals/2');
      journals[2] = aJournal(ids(p));
      journals[3] = {
        posting_date: '2026-11-20',
        lines: [
          { account_id: ids(p)[0], debit_minor: 5 },
          { account_id: other.accounts[0].id, credit_minor: 5 },
        ],
      };
      const foreign = await batch(p, journals);
      expect(foreign.status).toBe(422);
      expect(foreign.body.code).toBe('reference_not_allowed');
      expect(foreign.body.errors).toEqual([{ pointer: '/journals/3/lines/1/account_id', code: 'reference_not_allowed', detail: expect.any(String) }]);
      expect(await entryCount(p.organization_id)).toBe(0);
      expect((await post(p)).voucher_number).toBe(1);
    });

    it('answers a journal into a closed period with 422 period_locked, posting none of the others and using no number', async () => {
      const p = await aSandboxProject(app);
      expect((await consolePost(app, `/organizations/${p.organization_id}/periods/2026-04/close`)).status).toBe(200);
      const journals = [aJournal(ids(p)), aJournal(ids(p), { posting_date: '2026-04-30' }), aJournal(ids(p))];
      const locked = await batch(p, journals);
      expect(locked.status).toBe(422);
      expect(locked.body.code).toBe('period_locked');
      expect(await entryCount(p.organization_id)).toBe(0);
      expect((await post(p)).voucher_number).toBe(1);
    });

    it('answers a body over 256 KiB with 413 payload_too_large, posting nothing', async () => {
      const p = await aSandboxProject(app);
      const journal = { ...aJournal(ids(p), { lines: 50 }), description: 'x'.repeat(1000) };
      const journals = Array.from({ length: 100 }, () => journal);
      expect(JSON.stringify({ journals }).length).toBeGreaterThan(262_144);
      const res = await batch(p, journals);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('payload_too_large');
      expect(await entryCount(p.organization_id)).toBe(0);
    });

    it('posts a batch of one journal', async () => {
      const p = await aSandboxProject(app);
      const res = await batch(p, [aJournal(ids(p), { posting_date: '2025-03-04' })]);
      expect(res.status).toBe(201);
      expect(res.body.entries).toEqual([{ id: expect.any(String), voucher_year: 2025, voucher_number: 1 }]);
      expect((await get(`${SANDBOX}/journal/entries/${res.body.entries[0].id}`, p.token)).body).toMatchObject({
        posting_date: '2025-03-04',
        voucher_number: 1,
      });
    });

    it('posts 100 journals in one call', async () => {
      const p = await aSandboxProject(app);
      const res = await batch(
        p,
        Array.from({ length: 100 }, () => aJournal(ids(p))),
      );
      expect(res.status).toBe(201);
      expect(res.body.entries.map((e: { voucher_number: number }) => e.voucher_number)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(await entryCount(p.organization_id)).toBe(100);
    });

    it('production: needs the mandate, and posts within the grant', async () => {
      const access = await aProductionAccess(app);
      const journal = aJournal(access.grantedAccountIds, { amount: 100 });
      const refused = await batch(access, [journal], randomUUID(), PRODUCTION);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('mandate_required');
      await withMandate(access);
      const outside = await batch(
        access,
        [journal, { ...journal, lines: [journal.lines[0], { account_id: access.organization.accounts.at(-1)!.id, credit_minor: 100 }] }],
        randomUUID(),
        PRODUCTION,
      );
      expect(outside.status).toBe(422);
      expect(outside.body.errors).toEqual([expect.objectContaining({ pointer: '/journals/1/lines/1/account_id' })]);
      const ok = await batch(access, [journal, journal], randomUUID(), PRODUCTION);
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ environment: 'production', entries: [{ voucher_number: 1 }, { voucher_number: 2 }] });
      const read = await get(`${PRODUCTION}/journal/entries/${ok.body.entries[1].id}`, access.token);
      expect(read.body.registered_by).toEqual({ app_id: access.app.id, app_name: expect.any(String), grant_id: access.grant.id });
    });
  });
});
