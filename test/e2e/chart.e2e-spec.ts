import { aSandboxProject, PRODUCTION, SANDBOX } from '../support/fixtures';
import { anApprovedApp, anOwner, aToken, codeOf, consolePost } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

/**
 * CONTRACT §7 `GET /accounts`, `GET /tax-codes`: what a partner may reference in a journal — the
 * permitted, active accounts by number and the organization's tax codes by code — and nothing else.
 */
describe('GET /accounts and GET /tax-codes (CONTRACT §7)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const read = (base: string, token: string, what: 'accounts' | 'tax-codes') => app.partner().get(`${base}/${what}`).set('Authorization', `Bearer ${token}`);

  async function created(path: string, body: object = {}): Promise<string> {
    const res = await consolePost(app, path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  }

  /** An organization with the given accounts and tax codes (numbers and codes deliberately out of order). */
  async function anOrganization(accounts: Array<[string, string]>, taxCodes: Array<[string, number]> = []) {
    const id = await created('/organizations', { name: 'Bageriet ApS' });
    const ids: Record<string, string> = {};
    for (const [number, name] of accounts) ids[number] = await created(`/organizations/${id}/accounts`, { number, name });
    const taxIds: Record<string, string> = {};
    for (const [code, rate] of taxCodes) taxIds[code] = await created(`/organizations/${id}/tax-codes`, { code, rate_basis_points: rate });
    return { id, accounts: ids, taxCodes: taxIds };
  }

  async function aGrant(organizationId: string, accountIds: string[], scopes: string[]) {
    const owner = await anOwner(app, organizationId);
    const theApp = await anApprovedApp(app);
    const res = await consolePost(app, `/organizations/${organizationId}/grants`, {
      app_id: theApp.id,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner),
      account_ids: accountIds,
      scopes,
    });
    if (res.status !== 201) throw new Error(`grant: ${res.status} ${JSON.stringify(res.body)}`);
    return aToken(app, res.body.id as string);
  }

  it("production: only the grant's selected accounts that are active, by number; never another organization's", async () => {
    const org = await anOrganization([
      ['7000', 'Husleje'],
      ['12000', 'Bank'],
      ['1000', 'Salg'],
      ['5000', 'Varelager'],
      ['3000', 'Lukket'],
    ]);
    const other = await anOrganization([['1010', 'Fremmed konto']]);
    const token = await aGrant(org.id, [org.accounts['7000'], org.accounts['12000'], org.accounts['1000'], org.accounts['3000']], ['journal:prepare']);
    // selected, then deactivated: no longer permitted (CONTRACT §8); 5000 is not selected at all
    expect((await consolePost(app, `/accounts/${org.accounts['3000']}/deactivate`)).status).toBe(200);
    // the other organization's account exists and is active, but is not this grant's
    expect(other.accounts['1010']).toBeDefined();

    const res = await read(PRODUCTION, token, 'accounts');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // CONTRACT §7 (version 5): natural order, runs of digits compare as numbers (7000 before 12000)
    expect(res.body).toEqual({
      data: [
        { id: org.accounts['1000'], number: '1000', name: 'Salg' },
        { id: org.accounts['7000'], number: '7000', name: 'Husleje' },
        { id: org.accounts['12000'], number: '12000', name: 'Bank' },
      ],
    });
  });

  it('natural order wherever accounts are listed: runs of digits compare as numbers (partner read, console read)', async () => {
    const numbers = ['12000', 'A-10', '7000', '0100', '1000', 'A-9', '100', '1000-2', '1000-10', '99999999999999999999', 'B'];
    const org = await anOrganization(numbers.map((n) => [n, `Konto ${n}`]));
    // equal as numbers (0100, 100): the text breaks the tie
    const natural = ['0100', '100', '1000', '1000-2', '1000-10', '7000', '12000', '99999999999999999999', 'A-9', 'A-10', 'B'];
    const token = await aGrant(
      org.id,
      numbers.map((n) => org.accounts[n]),
      ['journal:prepare'],
    );
    const partner = await read(PRODUCTION, token, 'accounts');
    expect(partner.body.data.map((a: { number: string }) => a.number)).toEqual(natural);
    const console = await app.console().get(`/console/v1/organizations/${org.id}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(console.body.accounts.map((a: { number: string }) => a.number)).toEqual(natural);
  });

  it("production: the organization's tax codes by code, with their rates; none of another organization's", async () => {
    const org = await anOrganization(
      [['1000', 'Salg']],
      [
        ['U25', 2500],
        ['I25', 2500],
        ['E0', 0],
      ],
    );
    await anOrganization([['1000', 'Salg']], [['A12', 1200]]);
    const token = await aGrant(org.id, [org.accounts['1000']], ['journal:post']);
    const res = await read(PRODUCTION, token, 'tax-codes');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { id: org.taxCodes.E0, code: 'E0', rate_basis_points: 0 },
        { id: org.taxCodes.I25, code: 'I25', rate_basis_points: 2500 },
        { id: org.taxCodes.U25, code: 'U25', rate_basis_points: 2500 },
      ],
    });
  });

  it('needs journal:prepare or journal:post: either alone answers 200, another scope is 403 insufficient_scope naming both', async () => {
    const org = await anOrganization([['1000', 'Salg']]);
    const prepareOnly = await aGrant(org.id, [org.accounts['1000']], ['journal:prepare']);
    const postOnly = await aGrant(org.id, [org.accounts['1000']], ['journal:post']);
    // each grant is of a new app, so both stay in force
    for (const token of [prepareOnly, postOnly]) {
      for (const what of ['accounts', 'tax-codes'] as const) expect((await read(PRODUCTION, token, what)).status).toBe(200);
    }
    const readOnly = await aGrant(org.id, [org.accounts['1000']], ['operations:read', 'products:create']);
    for (const what of ['accounts', 'tax-codes'] as const) {
      const res = await read(PRODUCTION, readOnly, what);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="partner-api", error="insufficient_scope", scope="journal:prepare journal:post"');
      expect(JSON.stringify(res.body)).not.toContain('Salg');
    }
  });

  it("sandbox: every active account of the project's organization, by number, and its tax codes; not another project's", async () => {
    const project = await aSandboxProject(app);
    const another = await aSandboxProject(app);
    const gone = project.accounts[project.accounts.length - 1];
    expect((await consolePost(app, `/accounts/${gone.id}/deactivate`)).status).toBe(200);

    const accounts = await read(SANDBOX, project.token, 'accounts');
    expect(accounts.status).toBe(200);
    // natural order (CONTRACT §7, version 5); 15000 was deactivated
    const order = ['1000', '1100', '5000', '7000', '7500', '12000', '13000', '14500', '14600'];
    expect(gone.number).toBe('15000');
    const byNumber = new Map(project.accounts.map((a) => [a.number, a]));
    expect(accounts.body).toEqual({ data: order.map((n) => byNumber.get(n)!).map(({ id, number, name }) => ({ id, number, name })) });
    const anotherIds = new Set(another.accounts.map((a) => a.id));
    expect(accounts.body.data.filter((a: { id: string }) => anotherIds.has(a.id))).toEqual([]);

    const taxCodes = await read(SANDBOX, project.token, 'tax-codes');
    expect(taxCodes.status).toBe(200);
    expect(taxCodes.body.data.map((t: { id: string; code: string }) => ({ id: t.id, code: t.code }))).toEqual(
      [...project.tax_codes].sort((a, b) => (a.code < b.code ? -1 : 1)),
    );
    for (const t of taxCodes.body.data) expect(Number.isInteger(t.rate_basis_points)).toBe(true);
  });

  it('a listed account is one a journal may use: prepare with every listed account passes', async () => {
    const project = await aSandboxProject(app);
    const { body } = await read(SANDBOX, project.token, 'accounts');
    const ids: string[] = body.data.map((a: { id: string }) => a.id);
    const lines = ids.flatMap((id) => [
      { account_id: id, debit_minor: 100 },
      { account_id: id, credit_minor: 100 },
    ]);
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', `Bearer ${project.token}`)
      .send({ posting_date: '2026-11-20', lines });
    expect(res.status).toBe(200);
  });

  it('the token rules hold: none is 401, a sandbox token on the production path 401, a revoked grant 403', async () => {
    const project = await aSandboxProject(app);
    expect((await app.partner().get(`${SANDBOX}/accounts`)).body.code).toBe('missing_token');
    expect((await read(PRODUCTION, project.token, 'accounts')).body.code).toBe('token_environment_mismatch');
    const org = await anOrganization([['1000', 'Salg']]);
    const owner = await anOwner(app, org.id);
    const theApp = await anApprovedApp(app);
    const grant = await consolePost(app, `/organizations/${org.id}/grants`, {
      app_id: theApp.id,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner),
      account_ids: [org.accounts['1000']],
      scopes: ['journal:prepare'],
    });
    const token = await aToken(app, grant.body.id);
    expect((await consolePost(app, `/grants/${grant.body.id}/revoke`)).status).toBe(200);
    const res = await read(PRODUCTION, token, 'accounts');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('grant_revoked');
    expect(JSON.stringify(res.body)).not.toContain(org.accounts['1000']);
  });
});
