import { randomUUID } from 'node:crypto';
import { ConnectedAppsService } from '../../src/modules/owner-pages/application/connected-apps.service';
import type { ConsentSession } from '../../src/modules/auth/consent/domain/consent.repository';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The connections page's rows were one statement across organizations, grants, grant_accounts,
 * accounts and apps (issue 16 split it into the owners' read ports). This pins the split to the
 * statement it replaced: same rows, same content, same order (ORDER BY o.name, o.id, a.name, g.id,
 * accounts by number), on data where ties and the collation matter.
 */
const BEFORE_THE_SPLIT = `SELECT g.organization_id, o.name AS organization_name, g.id AS grant_id, a.name AS app_name, g.scopes, g.expires_at,
              coalesce((SELECT json_agg(json_build_object('number', ac.number, 'name', ac.name)
                                   -- CONTRACT §7 (version 5): accounts in natural number order on the pages too
                                   ORDER BY natural_sort_key(ac.number) COLLATE "C", ac.number COLLATE "C", ac.id)
                          FROM grant_accounts ga JOIN accounts ac ON ac.organization_id = ga.organization_id AND ac.id = ga.account_id
                         WHERE ga.organization_id = g.organization_id AND ga.grant_id = g.id), '[]') AS accounts
         FROM organization_owners ow
         JOIN organizations o ON o.id = ow.organization_id
         JOIN grants g ON g.organization_id = ow.organization_id
         JOIN apps a ON a.id = g.app_id
        WHERE ow.user_id = $1 AND g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > $2
        ORDER BY o.name, o.id, a.name, g.id`;

describe('connections page rows (issue 16: read ports instead of one cross-module statement)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('are the rows, content and order of the statement they replaced', async () => {
    const q = (sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> => app.apps.dataSource.query(sql, params);
    const user = randomUUID();
    const other = randomUUID();
    for (const id of [user, other]) {
      await q(`INSERT INTO users (id, email, totp_secret) VALUES ($1, $2, 'x')`, [id, `${id}@example.dk`]);
    }
    // equal names, case, non-ASCII: the database's collation decides, not JavaScript's
    const orgNames = ['Beta ApS', 'alpha ApS', 'Beta ApS', 'Åse A/S', 'beta ApS', 'Nobody grants'];
    const orgs: string[] = [];
    for (const name of orgNames) {
      const id = randomUUID();
      orgs.push(id);
      await q(`INSERT INTO organizations (id, name, environment) VALUES ($1, $2, 'production')`, [id, name]);
      await q(`INSERT INTO organization_owners (organization_id, user_id) VALUES ($1, $2)`, [id, user]);
    }
    const foreign = randomUUID();
    await q(`INSERT INTO organizations (id, name, environment) VALUES ($1, 'Aaa not mine', 'production')`, [foreign]);
    await q(`INSERT INTO organization_owners (organization_id, user_id) VALUES ($1, $2)`, [foreign, other]);

    const appNames = ['Zeta', 'zeta', 'Äpp', 'Same', 'Same', 'same', 'Bogføring', 'Same'];
    const apps: string[] = [];
    for (const name of appNames) {
      const id = randomUUID();
      apps.push(id);
      await q(`INSERT INTO apps (id, name) VALUES ($1, $2)`, [id, name]);
    }
    const accountNumbers = ['1000', '2000', '10', '9', 'Æ1', 'a1', 'B1'];
    const accounts = new Map<string, string[]>();
    for (const org of [...orgs, foreign]) {
      const ids: string[] = [];
      for (const number of accountNumbers) {
        const id = randomUUID();
        ids.push(id);
        await q(`INSERT INTO accounts (organization_id, id, number, name) VALUES ($1, $2, $3, $4)`, [org, id, number, `Konto ${number}`]);
      }
      accounts.set(org, ids);
    }
    await q(`UPDATE accounts SET active = false WHERE number = '9'`);

    const now = Date.now();
    const at = (seconds: number) => new Date(now + seconds * 1000);
    let n = 0;
    const grant = async (org: string, appId: string, state: { superseded?: boolean; revoked?: boolean; expired?: boolean } = {}) => {
      const id = randomUUID();
      n += 1;
      await q(
        `INSERT INTO grants (organization_id, id, app_id, owner_user_id, scopes, aal, granted_at, expires_at, revoked_at, superseded_at)
         VALUES ($1, $2, $3, $4, $5::text[], 'aal2', $6, $7, $8, $9)`,
        [
          org,
          id,
          appId,
          user,
          n % 2 === 0 ? ['journal:prepare', 'journal:post'] : ['operations:read'],
          at(-3600),
          state.expired ? at(-60) : at(86_400 + n),
          state.revoked ? at(-10) : null,
          state.superseded ? at(-20) : null,
        ],
      );
      const ids = accounts.get(org) as string[];
      // a different selection per grant, the first one none
      for (const [i, accountId] of ids.entries()) {
        if ((i + n) % 3 === 0 && n > 1) await q(`INSERT INTO grant_accounts (organization_id, grant_id, account_id) VALUES ($1, $2, $3)`, [org, id, accountId]);
      }
      return id;
    };
    for (const appId of apps) await grant(orgs[0], appId);
    await grant(orgs[0], apps[0], { superseded: true });
    for (const appId of [apps[3], apps[4], apps[5], apps[7]]) await grant(orgs[2], appId);
    await grant(orgs[2], apps[0], { revoked: true });
    await grant(orgs[2], apps[1], { expired: true });
    for (const appId of [apps[2], apps[6]]) await grant(orgs[3], appId);
    for (const appId of [apps[4], apps[0]]) await grant(orgs[4], appId);
    await grant(orgs[1], apps[3], { revoked: true });
    for (const appId of apps) await grant(foreign, appId);

    const connected = app.apps.partner.get(ConnectedAppsService);
    const session = { userId: user } as ConsentSession;
    const actual = await connected.connections(session);
    const before = await q(BEFORE_THE_SPLIT, [user, new Date()]);
    expect(before.length).toBe(16);

    // the page's grouping of the statement's rows, as ConsentService.connections did it (now ConnectedAppsService.connections)
    const expected = new Map<string, { name: string; apps: unknown[] }>();
    for (const r of before) {
      const entry = expected.get(r.organization_id as string) ?? { name: r.organization_name as string, apps: [] };
      entry.apps.push({
        organizationId: r.organization_id,
        organizationName: r.organization_name,
        grantId: r.grant_id,
        appName: r.app_name,
        scopes: r.scopes,
        expiresAt: r.expires_at instanceof Date ? r.expires_at : new Date(r.expires_at as string),
        // CONTRACT §18: accounts by number as a number (the statement ordered them as text)
        accounts: ((typeof r.accounts === 'string' ? JSON.parse(r.accounts) : r.accounts) as Array<{ number: string }>).sort(
          (x, y) => Number(x.number) - Number(y.number),
        ),
      });
      expected.set(r.organization_id as string, entry);
    }
    const projected = actual.map((o) => ({
      name: o.name,
      apps: o.apps.map((a) => ({
        organizationId: o.id,
        organizationName: o.name,
        grantId: a.grantId,
        appName: a.appName,
        scopes: a.scopes,
        expiresAt: a.expiresAt,
        accounts: a.accounts,
      })),
    }));
    expect(projected).toEqual([...expected.values()]);
    expect(actual.map((o) => o.apps.map((a) => a.grantId))).toEqual([...expected.values()].map((o) => o.apps.map((a) => (a as { grantId: string }).grantId)));
  });
});
