import { EntityManager } from 'typeorm';
import { RequestLogRecorder } from '../../src/modules/developers';
const REQUEST_LOG_SCAN = 50_000;
import { postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, type Developer } from '../support/developer-fixtures';
import { SANDBOX } from '../support/fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, itOnPostgres, type TestApp } from '../support/test-app';

/**
 * CONTRACT §15 (version 5), the developer console's request log: every partner call of the app (not only
 * the refused ones), its fields, the filters, 50 a page with Older, the retention — and nothing a
 * developer must not see (a body, a token, the whole Idempotency-Key, a call of a token that names no app).
 */
describe('request log (CONTRACT §15)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  let dev: Developer;
  let appId: string;
  let token: string;

  const issued = (html: string) => /id="issued-value">([^<]+)</.exec(html)?.[1] as string;
  /** The rows of the page's request log, as the text of each row's cells. */
  const rows = (html: string): string[] => {
    const section = html.slice(html.indexOf('id="request-log"'));
    return [...section.matchAll(/<tr><td data-label="Time">([\s\S]*?)<\/tr>/g)].map((m) => m[1].replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '));
  };
  const logPage = async (query = '') => {
    await app.apps.partner.get(RequestLogRecorder, { strict: false }).settled();
    return d().get(`/developers/apps/${appId}${query}`);
  };
  const d = () => dev.driver;
  const call = (path: string) => app.partner().get(`${SANDBOX}${path}`).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    app = await createTestApp({ trustProxy: 'loopback' }, { clock });
    dev = await aDeveloper(app, clock);
    appId = await anAppOnThePage(dev);
    token = issued((await postAndFollow(dev.driver, `/developers/apps/${appId}/sandbox-token`, {})).text);
  });
  afterAll(() => app.close());

  it("lists a success and a refusal with time (UTC), path with its query, status, code, pointers, duration, request id, client address and the key's first 8 characters", async () => {
    const ok = await call('/journal/entries?without_attachments=true').set('X-Forwarded-For', '203.0.113.7');
    expect(ok.status).toBe(200);
    const refused = await app
      .partner()
      .post(`${SANDBOX}/products`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', 'abcdefgh-secret-tail-0001')
      .send({ name: 'secret-looking-name', unknown_field: 1 });
    expect(refused.status).toBe(400);
    const page = await logPage();
    expect(page.status).toBe(200);
    const [newest, older] = rows(page.text);
    expect(newest).toContain(`POST ${SANDBOX}/products`);
    expect(newest).toContain(' 400 ');
    expect(newest).toContain('invalid_input');
    for (const e of refused.body.errors as Array<{ pointer: string }>) expect(newest).toContain(e.pointer);
    expect(newest).toContain(refused.body.request_id);
    expect(newest).toContain('abcdefgh…');
    expect(newest).toMatch(/ \d+ ms /);
    expect(newest).toContain('2026-11-20 12:00:');
    expect(newest).toContain(' UTC');
    expect(older).toContain(`GET ${SANDBOX}/journal/entries?without_attachments=true`);
    expect(older).toContain(' 200 ');
    expect(older).toContain(ok.headers['x-request-id'] ?? '');
    expect(older).toContain('203.0.113.7');
    // never the body, the token or the rest of the key, nor an account name the answer carried
    expect(page.text).not.toContain('secret-looking-name');
    expect(page.text).not.toContain('secret-tail');
    expect(page.text).not.toContain(token);
    const accounts = await call('/accounts');
    await logPage();
    const accountName = (accounts.body as { data: Array<{ name: string }> }).data[0].name;
    expect(rows((await logPage()).text).join('\n')).not.toContain(accountName);
  });

  it('does not log a call whose token names no app (401)', async () => {
    const before = rows((await logPage()).text).length;
    const stranger = await app.partner().get(`${SANDBOX}/accounts?stranger=1`).set('Authorization', 'Bearer hst_unknownunknownunknownunknownunknown0000000000');
    expect(stranger.status).toBe(401);
    const after = (await logPage()).text;
    expect(after).not.toContain('stranger=1');
    expect(rows(after).length).toBe(before);
  });

  it('filters by Status, Path contains, Request id and Environment', async () => {
    const missing = await call('/operations/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    const only4xx = rows((await logPage('?status=4xx')).text);
    expect(only4xx.length).toBeGreaterThanOrEqual(2);
    for (const r of only4xx) expect(r).toMatch(/ 4\d\d /);
    const only2xx = rows((await logPage('?status=2xx')).text);
    expect(only2xx.length).toBeGreaterThanOrEqual(1);
    for (const r of only2xx) expect(r).toMatch(/ 2\d\d /);
    expect(rows((await logPage('?status=5xx')).text)).toEqual([]);
    const byPath = rows((await logPage('?path=%2Foperations%2F')).text);
    expect(byPath).toHaveLength(1);
    expect(byPath[0]).toContain(missing.body.request_id);
    // "contains" is a plain substring: a LIKE pattern's % matches nothing here
    expect(rows((await logPage('?path=%25')).text)).toEqual([]);
    const byId = rows((await logPage(`?request_id=${missing.body.request_id}`)).text);
    expect(byId).toHaveLength(1);
    expect(rows((await logPage('?environment=production')).text)).toEqual([]);
    expect(rows((await logPage('?environment=sandbox&status=4xx')).text)).toHaveLength(only4xx.length);
  });

  it('shows 50 a page, newest first, and the rest behind Older with the same filters', async () => {
    for (let i = 1; i <= 55; i++) expect((await call(`/events?limit=${i}`)).status).toBe(200);
    const first = await logPage('?path=limit%3D');
    const firstRows = rows(first.text);
    expect(firstRows).toHaveLength(50);
    expect(firstRows[0]).toContain('limit=55');
    expect(firstRows[49]).toContain('limit=6 ');
    const older = /<a href="([^"]+)">Older<\/a>/.exec(first.text)?.[1].replace(/&amp;/g, '&');
    expect(older).toMatch(/path=limit%3D/);
    const second = await d().get(older!.replace(/#.*$/, ''));
    const secondRows = rows(second.text);
    expect(secondRows).toHaveLength(5);
    expect(secondRows[0]).toContain('limit=5 ');
    expect(secondRows[4]).toContain('limit=1 ');
    expect(second.text).not.toContain('>Older</a>');
  });

  it('shows the values of query parameters named token, access_token, code, secret, password, key, signature as *** (CONTRACT §20; issue 43: ?token=hsk_… was kept verbatim)', async () => {
    const names = ['token', 'access_token', 'code', 'secret', 'password', 'key', 'signature'];
    const query = [...names.map((n, i) => `${n}=hsk_leaked${i}value`), 'Token=hsk_leakedUpper', '%74oken=hsk_leakedEncoded', 'limit=hsk_kept'].join('&');
    const res = await call(`/events?${query}`);
    expect(res.status).toBe(400);
    const page = (await logPage('?path=limit%3Dhsk_kept')).text;
    const [row] = rows(page);
    expect(row).toContain(`GET ${SANDBOX}/events?${[...names, 'Token', '%74oken'].map((n) => `${n}=***&amp;`).join('')}limit=hsk_kept`);
    expect(page).not.toContain('hsk_leaked');
    const stored: Array<{ path: string }> = await app.apps.dataSource.query(`SELECT path FROM request_log WHERE path LIKE '%hsk_%'`);
    expect(stored.map((r) => r.path).join('\n')).not.toContain('hsk_leaked');
  });

  /** Calls of the stream (app, environment) a real call of the token was logged in, written straight into the table. */
  const fill = async (rows: number, path: (n: string) => string, status = '201') => {
    const probe = await call('/accounts');
    await app.apps.partner.get(RequestLogRecorder, { strict: false }).settled();
    const [{ app_id, environment }] = await app.apps.dataSource.query(`SELECT app_id, environment FROM request_log WHERE request_id = $1`, [
      probe.headers['x-request-id'],
    ]);
    await app.apps.dataSource.query(
      `INSERT INTO request_log (app_id, environment, at, method, path, status, duration_ms, request_id)
       SELECT $1, $2, now(), 'GET', ${path('g')}, ${status}, 1, 'bulk-' || g FROM generate_series(1, $3::int) g`,
      [app_id, environment, rows],
    );
    return { app_id, environment };
  };

  it(`a Path contains page examines at most ${REQUEST_LOG_SCAN} calls and its Older goes on below them (CONTRACT §20: within 500 ms however large the log)`, async () => {
    // the one match, then more calls than a page examines, none of them matching
    await fill(1, () => `'/api/partner/sandbox/v1/needle-in-the-log'`);
    await fill(REQUEST_LOG_SCAN + 10, (g) => `'/api/partner/sandbox/v1/hay/' || ${g}`);
    const first = await logPage('?path=needle-in-the');
    expect(rows(first.text)).toEqual([]);
    expect(first.text).toContain(`Path contains looks through ${REQUEST_LOG_SCAN.toLocaleString('en-US')} calls a page`);
    const older = /<a href="([^"]+)">Older<\/a>/.exec(first.text)?.[1].replace(/&amp;/g, '&');
    expect(older).toMatch(/path=needle-in-the&before=\d+/);
    const second = await d().get(older!);
    const found = rows(second.text);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('/needle-in-the-log');
    expect(second.text).not.toContain('>Older</a>');
    // an unfiltered page is not bounded that way: its 50 newest calls, and Older
    expect(rows((await logPage()).text)).toHaveLength(50);
  });

  itOnPostgres(
    'reads each filter from an index, newest first, never the primary key backwards through every tenant (issue 43: 2,003,843 rows discarded)',
    async () => {
      const mine = await fill(20_000, (g) => `'/api/partner/sandbox/v1/journal/entries/' || ${g}`, `CASE WHEN g % 500 = 0 THEN 500 ELSE 201 END`);
      // other tenants' calls, newer than the developer's
      await app.apps.dataSource.query(
        `INSERT INTO request_log (app_id, environment, at, method, path, status, duration_ms, request_id)
       SELECT gen_random_uuid(), 'sandbox', now(), 'GET', '/api/partner/sandbox/v1/accounts', 201, 1, 'other-' || g FROM generate_series(1, 20000) g`,
      );
      await app.apps.dataSource.query('ANALYZE request_log');
      const statements: Array<[string, unknown[]]> = [];
      const original = EntityManager.prototype.query;
      const spy = jest.spyOn(EntityManager.prototype, 'query').mockImplementation(function (
        this: EntityManager,
        sql: string,
        params?: unknown[] | Record<string, unknown>,
      ) {
        if (sql.includes('FROM request_log r')) statements.push([sql, Array.isArray(params) ? params : []]);
        return original.call(this, sql, params);
      });
      const filters = ['?status=5xx', '?status=2xx', '?request_id=bulk-777', '?request_id=none-such', '', '?path=nowhere', '?path=nowhere&status=4xx'];
      try {
        for (const q of filters) expect((await logPage(q)).status).toBe(200);
      } finally {
        spy.mockRestore();
      }
      expect(statements).toHaveLength(filters.length);
      /** How the plan reads request_log: each scan node on it, as `<node type> <index name>`. */
      type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Scan Direction'?: string; Plans?: PlanNode[] };
      const reads = (node: PlanNode): string[] => [
        ...(node['Relation Name'] === 'request_log' || node['Index Name']?.startsWith('request_log')
          ? [`${node['Node Type']} ${node['Index Name'] ?? ''} ${node['Scan Direction'] ?? ''}`.trim()]
          : []),
        ...(node.Plans ?? []).flatMap(reads),
      ];
      const plans: string[][] = [];
      for (const [sql, params] of statements) {
        const [
          {
            'QUERY PLAN': [{ Plan }],
          },
        ] = await app.apps.dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        plans.push(reads(Plan));
      }
      const byFilter = Object.fromEntries(filters.map((f, i) => [f || 'none', plans[i]]));
      for (const [filter, scans] of Object.entries(byFilter)) {
        for (const scan of scans) {
          expect({ filter, scan }).not.toEqual({ filter, scan: expect.stringMatching(/^Seq Scan|request_log_pkey Backward/) });
        }
      }
      const reading = (filter: string, index: string) => byFilter[filter].some((scan) => scan.includes(index));
      expect(reading('?status=5xx', 'request_log_status_idx')).toBe(true);
      // 2xx is most of a log: reading the app's newest calls and keeping the 2xx ones is as good a plan, and the
      // planner picks either by the table's statistics (other spec files of this worker share the database)
      expect(reading('?status=2xx', 'request_log_status_idx') || reading('?status=2xx', 'request_log_app_idx')).toBe(true);
      expect(reading('?request_id=bulk-777', 'request_log_request_id_idx')).toBe(true);
      expect(reading('?request_id=none-such', 'request_log_request_id_idx')).toBe(true);
      for (const f of ['none', '?path=nowhere', '?path=nowhere&status=4xx']) expect(reading(f, 'request_log_app_idx')).toBe(true);
      expect(mine.environment).toBe('sandbox');
    },
  );

  it('answers a bad filter with a 400 page, never a 500', async () => {
    for (const q of [
      '?status=3xx',
      '?environment=staging',
      '?before=abc',
      '?before=0',
      `?path=${'x'.repeat(201)}`,
      '?request_id=a%00b',
      '?status=4xx&status=5xx',
    ]) {
      const res = await d().get(`/developers/apps/${appId}${q}`);
      expect([q, res.status]).toEqual([q, 400]);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    // the page says which in its language (CONTRACT §18), in Danish too
    const said = async (q: string, lang: string) => /<p role="alert">([^<]*)</.exec((await d().get(`/developers/apps/${appId}${q}&lang=${lang}`)).text)?.[1];
    expect(await said('?status=3xx', 'en')).toBe('Status must be all, 2xx, 4xx or 5xx.');
    expect(await said('?status=3xx', 'da')).toBe('Status skal være alle, 2xx, 4xx eller 5xx.');
    expect(await said(`?path=${'x'.repeat(201)}`, 'da')).toBe('Sti indeholder må højst være 200 tegn tekst.');
    expect(await said('?before=abc', 'da')).toBe('Linket til ældre kald er ikke gyldigt: åbn kaldloggen igen.');
    // the switch's cookie back to English for the tests after this one
    expect(await said('?status=3xx', 'en')).toBe('Status must be all, 2xx, 4xx or 5xx.');
  });

  it('purges calls older than REQUEST_LOG_RETENTION_DAYS (7) and keeps the younger ones', async () => {
    const recorder = app.apps.partner.get(RequestLogRecorder, { strict: false });
    expect((await call('/journal/entries?posting_date_from=2026-01-01')).status).toBe(200);
    clock.advance(6 * 86_400_000);
    expect((await call('/journal/entries?posting_date_to=2026-12-31')).status).toBe(200);
    await recorder.settled();
    clock.advance(1 * 86_400_000 + 60_000);
    const purged = await recorder.purge();
    expect(purged).toBeGreaterThanOrEqual(1);
    // (the developer's session has expired by now: the table says what the page would list; this app's rows only,
    // since other spec files of this jest worker write to the same database)
    const kept: Array<{ path: string }> = await app.apps.dataSource.query(
      `SELECT path FROM request_log WHERE app_id = $1 AND path LIKE '%posting_date_%' ORDER BY id`,
      [appId],
    );
    expect(kept.map((r) => r.path)).toEqual([`${SANDBOX}/journal/entries?posting_date_to=2026-12-31`]);
  });
});
