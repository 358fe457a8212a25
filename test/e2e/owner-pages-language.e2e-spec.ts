import { randomUUID } from 'node:crypto';
import { SCOPES } from '../../src/shared/domain/scopes';
import {
  aConsentSetup,
  authorizeQuery,
  type ConsentSetup,
  anApprovedPublisher,
  consentOverHttp,
  exchangeCode,
  nextCode,
  PageDriver,
  PASSWORD,
  pkcePair,
  postAndFollow,
} from '../support/consent-fixtures';
import { aJournal, PRODUCTION } from '../support/fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * CONTRACT §18 on the owner pages over HTTP: the language and its order, who is asking on the consent
 * form, its end date in words, Enter (a form sent without the grant button) never grants, 303 after
 * every POST that succeeds, Connected apps in detail with its activity and CSV.
 */
describe('owner pages in their own language and in control (CONTRACT §18)', () => {
  let app: TestApp;
  // 20 November 2026, 12:00 UTC: 90 days later is 18 February 2027
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  beforeAll(async () => {
    app = await createTestApp({ serviceName: 'Regnskabsporten' }, { clock });
  });
  afterAll(() => app.close());

  const q = (sql: string, params: unknown[] = []) => app.apps.dataSource.query(sql, params);

  async function setup(): Promise<ConsentSetup> {
    const s = await aConsentSetup(app, { accounts: 2 });
    // numbers as text that sort differently as text and as numbers (CONTRACT §18: 1000, 7000, 12000)
    for (const [number, name] of [
      ['12000', 'Moms'],
      ['7000', 'Varekøb'],
      ['900', 'Kasse'],
    ]) {
      await q(`INSERT INTO accounts (organization_id, id, number, name) VALUES ($1, $2, $3, $4)`, [s.organization.id, randomUUID(), number, name]);
    }
    return s;
  }

  /** A set-up whose owner consented (with the posting mandate) to two accounts, and the token of that grant. */
  async function aMandatedToken() {
    const s = await setup();
    const chosen = [s.organization.accounts[0].id, s.organization.accounts[1].id];
    const { verifier, challenge } = pkcePair();
    const consent = await consentOverHttp(app, clock, s, { challenge, accountIds: chosen, mandate: true });
    const token = await exchangeCode(app, s, new URL(consent.location).searchParams.get('code') as string, verifier);
    expect(token.status).toBe(200);
    return { s, chosen, token };
  }

  function get(path: string, headers: Record<string, string> = {}) {
    return app.partner().get(path).set(headers);
  }

  describe('the language', () => {
    let s: ConsentSetup;
    let url: string;
    beforeAll(async () => {
      s = await setup();
      url = `/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`;
    });

    it('is Danish by default, with the Danish accessible names, <html lang>, Content-Language and Vary', async () => {
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<html lang="da">');
      expect(res.headers['content-language']).toBe('da');
      expect(res.headers.vary).toMatch(/Accept-Language/);
      expect(res.headers.vary).toMatch(/Cookie/);
      for (const label of ['E-mail', 'Adgangskode', 'Kode fra godkendelsesapp']) expect(res.text).toMatch(new RegExp(`<label for="[a-z]+">${label}</label>`));
      expect(res.text).toContain('<button type="submit">Log ind</button>');
      expect(res.text).toContain('Regnskabsporten');
    });

    it('follows Accept-Language with its weights', async () => {
      const en = await get(url, { 'Accept-Language': 'da;q=0.4, en-GB;q=0.9' });
      expect([en.headers['content-language'], en.text.includes('<html lang="en">'), en.text.includes('>Sign in</button>')]).toEqual(['en', true, true]);
      const da = await get(url, { 'Accept-Language': 'en;q=0.4, da;q=0.9' });
      expect(da.headers['content-language']).toBe('da');
    });

    it('puts the lang cookie before Accept-Language, and ui_locales before both', async () => {
      expect((await get(url, { 'Accept-Language': 'da', Cookie: 'lang=en' })).headers['content-language']).toBe('en');
      const withUi = `/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { ui_locales: 'fr en da' })}`;
      expect((await get(withUi, { 'Accept-Language': 'da', Cookie: 'lang=da' })).headers['content-language']).toBe('en');
      const uiDa = `/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { ui_locales: 'da-DK' })}`;
      expect((await get(uiDa, { 'Accept-Language': 'en', Cookie: 'lang=en' })).headers['content-language']).toBe('da');
    });

    it('is set by the switch on the page, which keeps the authorization request and sets the cookie', async () => {
      const page = await get(url);
      const href = /<a href="([^"]+)" lang="en" hreflang="en"/.exec(page.text)?.[1].replace(/&amp;/g, '&') as string;
      expect(href).toContain(`client_id=${s.client.client_id}`);
      const switched = await get(href);
      expect(switched.status).toBe(200);
      expect(switched.headers['content-language']).toBe('en');
      expect((switched.headers['set-cookie'] as unknown as string[]).some((c) => /^lang=en;/.test(c))).toBe(true);
    });

    it('is English by default on the developer console, in the same order (switch, cookie, Accept-Language), with the same headers and the one stylesheet', async () => {
      const en = await get('/developers/signin');
      expect([en.status, en.headers['content-language'], en.text.includes('<html lang="en">')]).toEqual([200, 'en', true]);
      expect(en.headers.vary).toMatch(/Accept-Language/);
      expect(en.headers.vary).toMatch(/Cookie/);
      expect((await get('/developers/signin', { 'Accept-Language': 'en;q=0.5, da' })).headers['content-language']).toBe('da');
      expect((await get('/developers/signin', { 'Accept-Language': 'da', Cookie: 'lang=en' })).headers['content-language']).toBe('en');
      expect((await get('/developers/signin', { 'Accept-Language': '*;q=0.1, garbage', Cookie: 'lang=klingon' })).headers['content-language']).toBe('en');
      const switched = await get('/developers/signin?lang=da', { 'Accept-Language': 'en' });
      expect([switched.status, switched.headers['content-language']]).toEqual([200, 'da']);
      expect(String(switched.headers['set-cookie'])).toMatch(/(^|,)\s*lang=da;/);
      expect(switched.text).toContain('>Log ind</button>');
      // CONTRACT §18: the consent pages and the developer console share one stylesheet
      const style = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
      const consentStyle = style((await get(url)).text);
      expect(consentStyle).toContain('table.stack');
      expect(style(en.text)).toBe(consentStyle);
      expect(style((await get('/account/connections')).text)).toBe(consentStyle);
    });

    it('never errors on garbage: the default language', async () => {
      const garbage = `/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { ui_locales: 'xx' })}`;
      const res = await get(garbage, { 'Accept-Language': '*;q=0.1, garbage', Cookie: 'lang=klingon' });
      expect([res.status, res.headers['content-language']]).toEqual([200, 'da']);
      const worse = await get(`${url}&lang=%00`, { 'Accept-Language': ';;q=abc,,,' + 'x'.repeat(3000) });
      expect([worse.status, worse.headers['content-language']]).toEqual([200, 'da']);
      // the 400 page of a bad client is in the language too
      const bad = await get('/oauth/authorize?client_id=nope', { 'Accept-Language': 'en' });
      expect([bad.status, bad.headers['content-language']]).toEqual([400, 'en']);
    });
  });

  describe('the consent form', () => {
    it('names who is asking, the end date in words, the scopes in words only, the accounts by number; Enter never grants', async () => {
      const s = await setup();
      await anApprovedPublisher(app, s.app.id, {
        name: 'Bogføring A/S',
        website: 'https://bogforing.example',
        privacyPolicy: 'https://bogforing.example/privatliv',
      });
      const driver = new PageDriver(app);
      driver.language = null;
      await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      const page = await postAndFollow(driver, '/oauth/authorize/sign-in', {
        email: s.owner.email,
        password: PASSWORD,
        code: ` ${nextCode(clock, s).replace(/(\d{3})/, '$1 ')} `,
      });
      expect([page.postStatus, page.status]).toEqual([303, 200]);
      const text = page.text;
      for (const shown of [
        'Regnskabsporten',
        'Bogføringsappen',
        'Bogføring A/S',
        'href="https://bogforing.example"',
        'href="https://bogforing.example/privatliv"',
        '127.0.0.1:8765',
        s.owner.email,
        'Bager Hansen ApS',
      ]) {
        expect(text).toContain(shown);
      }
      // 90 days from 20 November 2026 (the default duration), in words
      expect(text).toContain('90 dage – til 18. februar 2027');
      // CONTRACT §21: no text beside the options names an end date a choice could contradict
      expect(text).not.toContain('Adgangen gælder til');
      expect(text).toContain('Adgangen slutter på datoen ved den mulighed, du vælger');
      expect(text).toContain('30 dage – til 20. december 2026');
      for (const code of SCOPES) expect(text).not.toContain(code);
      expect(text).toContain('Bogføre posteringer');
      // journal:read (CONTRACT §17) in Danish: the entries and their bilag
      expect(text).toContain('<strong>Læse sine posteringer</strong>');
      expect(text).toContain('læse de posteringer, den har bogført, og deres bilag');
      expect(text).toContain('Tillad endelig bogføring (fuldmagt)');
      expect(text).toContain('href="/account/connections"');
      const numbers = [...text.matchAll(/<label for="account-\d+">(\d+) /g)].map((m) => m[1]);
      expect(numbers).toEqual(['900', '1000', '1010', '7000', '12000']);
      // the form's first submit button, which Enter presses, is the harmless review
      const form = text.slice(text.indexOf('<form method="post" action="/oauth/authorize/decision">'));
      expect(/<button[^>]*>/.exec(form)?.[0]).toMatch(/ value="review" hidden/);
      expect(form).toContain('>Tillad</button>');
      expect(form).toContain('>Afvis</button>');
      // a form sent by Enter (or without any button) grants nothing and comes back as it was
      const grantsBefore = await q(`SELECT count(*)::int AS n FROM grants WHERE organization_id = $1`, [s.organization.id]);
      for (const decision of [undefined, 'review', 'Tillad']) {
        const form2: Record<string, string> = { account_ids: s.organization.accounts[0].id, duration_days: '60', mandate: 'yes' };
        if (decision) form2.decision = decision;
        const sent = await driver.post('/oauth/authorize/decision', form2);
        expect([sent.status, sent.headers.location]).toEqual([422, undefined]);
        expect(sent.text).toContain('Der er ikke givet adgang.');
        expect(sent.text).toContain(`value="${s.organization.accounts[0].id}" checked>`);
        expect(sent.text).toContain('<option value="60" selected>');
        expect(sent.text).toMatch(/id="mandate" name="mandate" value="yes"[^>]* checked>/);
      }
      expect(await q(`SELECT count(*)::int AS n FROM grants WHERE organization_id = $1`, [s.organization.id])).toEqual(grantsBefore);
      // a refused Allow shows the form again, 422, in Danish
      const none = await driver.post('/oauth/authorize/decision', { decision: 'allow', duration_days: '30' });
      expect(none.status).toBe(422);
      expect(none.text).toContain('Vælg mindst én konto, appen må bruge.');
      expect(none.text).toContain('<option value="30" selected>');
    });
  });

  describe('Connected apps in detail', () => {
    it('shows scopes in words, accounts, dates, mandate, last activity and activity; the CSV has one row per line; Revoke asks first', async () => {
      const s = await setup();
      const chosen = [s.organization.accounts[0].id, s.organization.accounts[1].id];
      const { location } = await consentOverHttp(app, clock, s, { challenge: pkcePair().challenge, accountIds: chosen, mandate: true });
      expect(new URL(location).searchParams.get('code')).toBeTruthy();
      const { verifier, challenge } = pkcePair();
      const second = await consentOverHttp(app, clock, s, { challenge, accountIds: chosen, mandate: true });
      const token = await exchangeCode(app, s, new URL(second.location).searchParams.get('code') as string, verifier);
      expect(token.status).toBe(200);
      const journal = { ...aJournal(chosen, { lines: 4, amount: 350000 }), description: '=HYPERLINK("x"); "Salg"' };
      const posted = await app
        .partner()
        .post(`${PRODUCTION}/journal`)
        .set('Authorization', `Bearer ${token.body.access_token}`)
        .set('Idempotency-Key', 'act-1')
        .send(journal);
      expect(posted.status).toBe(201);
      // one attachment on the entry (CONTRACT §17): the activity counts it
      const attached = await app
        .partner()
        .post(`${PRODUCTION}/journal/entries/${posted.body.id}/attachments`)
        .set('Authorization', `Bearer ${token.body.access_token}`)
        .set('Idempotency-Key', 'att-1')
        .set('Content-Type', 'application/pdf')
        // CONTRACT §20: an executable dressed as a PDF (a right-to-left override shows "faktura-1042ath.pdf") is named as what it is
        .set('Content-Disposition', "attachment; filename*=UTF-8''faktura-1042%E2%80%AEfdp.hta")
        .send(Buffer.from('%PDF-1.4\n%owner pages\n%%EOF\n'));
      expect(attached.status).toBe(201);

      const driver = new PageDriver(app);
      driver.language = null;
      await driver.get('/account/connections');
      const list = await postAndFollow(driver, '/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([list.postStatus, list.status, list.headers['content-language']]).toEqual([303, 200, 'da']);
      const text = list.text;
      expect(text).toContain('<h1>Tilknyttede apps</h1>');
      expect(text).toContain('<li>Bogføre posteringer</li>');
      expect(text).not.toContain('journal:post');
      expect(text).toContain('1000 Konto 1, 1010 Konto 2');
      expect(text).toContain('>20. november 2026</time>');
      expect(text).toMatch(/Endelig bogføring \(fuldmagt\)<\/dt><dd>Ja<\/dd>/);
      expect(text).toContain('kl. 13.');
      // the entry: 2 debit lines of 3.500,00 kr.
      expect(text).toContain('7.000,00 kr.');
      // the attachment, downloadable by the owner (CONTRACT §18), the bytes as uploaded
      const href = (/href="(\/account\/connections\/attachment\?[^"]+)"/.exec(text)?.[1] as string).replace(/&amp;/g, '&');
      expect(text).toContain('>faktura-1042fdp.pdf</a>');
      expect(text).not.toContain('\u202e');
      const file = await app
        .partner()
        .get(href)
        .set('Cookie', driver.cookieHeader())
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect([file.status, file.headers['content-type'], file.headers['content-disposition']]).toEqual([
        200,
        'application/pdf',
        "attachment; filename*=UTF-8''faktura-1042fdp.pdf",
      ]);
      expect((file.body as Buffer).toString('latin1')).toBe('%PDF-1.4\n%owner pages\n%%EOF\n');
      // not without the owner's session, not for another grant
      expect((await app.partner().get(href)).status).toBe(303);
      expect(
        (
          await app
            .partner()
            .get(href.replace(/grant_id=[^&]+/, `grant_id=${randomUUID()}`))
            .set('Cookie', driver.cookieHeader())
        ).status,
      ).toBe(404);
      expect(text).toContain(`>${posted.body.voucher_year ?? 2026}-`);
      expect(text).toContain('>Hent CSV</a>');
      expect(text).toContain('>Tilbagekald</button>');
      // CONTRACT §21: what an owner acts on comes first — Revoke and Download CSV before the activity
      const card = text.slice(text.indexOf(`id="grant-${token.body.grant_id as string}"`));
      const activityAt = card.indexOf('<h4>Aktivitet</h4>');
      expect(activityAt).toBeGreaterThan(0);
      expect(card.indexOf('>Hent CSV</a>')).toBeLessThan(activityAt);
      expect(card.indexOf('>Tilbagekald</button>')).toBeLessThan(activityAt);
      const english = await driver.get('/account/connections?lang=en');
      expect(english.text).toContain('DKK 7,000.00');
      expect(english.text).toContain('>20 November 2026</time>');

      const grantId = token.body.grant_id as string;
      const csv = await app
        .partner()
        .get(`/account/connections/activity.csv?grant_id=${grantId}`)
        .set('Cookie', driver.cookieHeader())
        .set('Accept-Language', 'da')
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const bytes = csv.body as Buffer;
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
      // cookie lang=en from the switch above decides over Accept-Language
      expect(rows[0].split(';')[0]).toBe('Voucher');
      expect(rows).toHaveLength(1 + 4);
      const fields = (row: string) => row.replace(/"(?:[^"]|"")*"/g, 'QUOTED').split(';');
      expect(fields(rows[1]).slice(2, 8)).toEqual(['QUOTED', '1', '1000', 'Konto 1', '3500.00', '0.00']);
      expect(fields(rows[2]).slice(3, 8)).toEqual(['2', '1010', 'Konto 2', '0.00', '3500.00']);
      expect(fields(rows[1]).at(-1)).toBe('1');
      // the description is not a formula and keeps its quote and separator inside one field
      expect(rows[1]).toContain(`"'=HYPERLINK(""x""); ""Salg"""`);

      // Revoke asks first (Bekræft / Annuller), then 303 with the status on the page
      const confirm = await driver.get(`/account/connections/revoke?grant_id=${grantId}&lang=da`);
      expect(confirm.text).toContain('>Bekræft</button>');
      expect(confirm.text).toContain('>Annuller</button>');
      // the confirmation without its CSRF token: 403, the grant stays in force
      expect((await driver.post('/account/connections/revoke', { grant_id: grantId }, { csrf: null })).status).toBe(403);
      const inForce = async () => (await q(`SELECT revoked_at IS NULL AS in_force FROM grants WHERE id = $1`, [grantId]))[0].in_force as boolean;
      expect(await inForce()).toBe(true);
      const after = await postAndFollow(driver, '/account/connections/revoke', { grant_id: grantId });
      expect([after.postStatus, after.status]).toEqual([303, 200]);
      expect(after.text).toContain('Adgangen for Bogføringsappen til Bager Hansen ApS er tilbagekaldt.');
      expect(await inForce()).toBe(false);
      // the confirmation posted again (a replay, a double click): nothing happens twice — no second grant.revoked
      const revokedEvents = async () =>
        Number(
          (
            await q(`SELECT count(*)::int AS n FROM webhook_outbox WHERE body::jsonb->>'type' = 'grant.revoked' AND body::jsonb->'data'->>'grant_id' = $1`, [
              grantId,
            ])
          )[0].n,
        );
      expect(await revokedEvents()).toBe(1);
      const replay = await postAndFollow(driver, '/account/connections/revoke', { grant_id: grantId });
      expect([replay.postStatus, replay.status]).toEqual([303, 200]);
      expect(replay.text).toContain('Den adgang var allerede ophørt.');
      expect(await revokedEvents()).toBe(1);
    });

    it('shows a reversal in the activity as one, with the voucher it reverses (CONTRACT §19)', async () => {
      const { s, chosen, token } = await aMandatedToken();
      const auth = `Bearer ${token.body.access_token}`;
      const posted = await app
        .partner()
        .post(`${PRODUCTION}/journal`)
        .set('Authorization', auth)
        .set('Idempotency-Key', 'rev-1')
        .send({ ...aJournal(chosen), description: 'Forkert beløb' });
      expect(posted.status).toBe(201);
      const reversal = await app
        .partner()
        .post(`${PRODUCTION}/journal/entries/${posted.body.id}/reversal`)
        .set('Authorization', auth)
        .set('Idempotency-Key', 'rev-2')
        .send({ posting_date: '2026-11-20', description: 'Rettelse' });
      expect(reversal.status).toBe(201);
      const driver = new PageDriver(app);
      driver.language = 'da';
      await driver.get('/account/connections');
      const page = await postAndFollow(driver, '/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      const rows = [...page.text.matchAll(/data-label="Bilagsnr\.">([^<]+)<\/td>.*?data-label="Tekst">(.*?)<\/td>/g)].map((m) => [m[1], m[2]]);
      expect(rows).toEqual([
        ['2026-2', 'Rettelse <span class="hint">(tilbagefører bilag 2026-1)</span>'],
        ['2026-1', 'Forkert beløb'],
      ]);
      const english = await driver.get('/account/connections?lang=en');
      expect(english.text).toContain('Rettelse <span class="hint">(reverses voucher 2026-1)</span>');
    });

    it('lists the activity 10 entries a page (CONTRACT §21, was 50), newest first, with a link to the older ones and back', async () => {
      const { s, chosen, token } = await aMandatedToken();
      for (let i = 1; i <= 11; i++) {
        const posted = await app
          .partner()
          .post(`${PRODUCTION}/journal`)
          .set('Authorization', `Bearer ${token.body.access_token}`)
          .set('Idempotency-Key', `page-${i}`)
          .send({ ...aJournal(chosen), description: `Postering nr. ${i}` });
        expect(posted.status).toBe(201);
      }
      const grantId = token.body.grant_id as string;
      const driver = new PageDriver(app);
      driver.language = 'da';
      await driver.get('/account/connections');
      const first = await postAndFollow(driver, '/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      const descriptions = (html: string) => [...html.matchAll(/data-label="Tekst">Postering nr\. (\d+)</g)].map((m) => Number(m[1]));
      expect(descriptions(first.text)).toEqual(Array.from({ length: 10 }, (_, i) => 11 - i));
      expect(first.text).toContain(`<a href="/account/connections?grant=${grantId}&amp;page=2#grant-${grantId}">Ældre posteringer</a>`);
      const second = await driver.get(`/account/connections?grant=${grantId}&page=2`);
      expect(descriptions(second.text)).toEqual([1]);
      expect(second.text).not.toContain('Ældre posteringer');
      expect(second.text).toContain(`<a href="/account/connections#grant-${grantId}">`);
      // a page number that is not one is the first page, never an error
      for (const bad of ['0', '-1', 'x', '9999999'])
        expect(descriptions((await driver.get(`/account/connections?grant=${grantId}&page=${bad}`)).text)).toHaveLength(10);
    });
  });
});
