import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/shared/database/migrations';
import { CorrectionsRegisteredBy1766640000000 } from '../../src/shared/database/migrations/1766640000000-corrections-registered-by';
import { withNewDatabase } from '../support/new-database';
import { describeOnPostgres } from '../support/test-app';

const dataSource = (url: string, migrations: Function[]) =>
  new DataSource({
    type: 'postgres',
    url,
    entities: [],
    migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    logging: false,
  });

/**
 * Migration 1766640000000 (CONTRACT §19 registered_by, docs/adr/0012-registered-by-backfill.md): entries
 * posted before it get the app's name and the production grant of (organization, app) in force at their
 * posted_at, or null where none was; sandbox entries get no grant.
 */
describeOnPostgres('migration CorrectionsRegisteredBy1766640000000: registered_by of entries posted before', () => {
  it('backfills the app name and the grant in force at posted_at, null where none was or in the sandbox', async () => {
    const index = MIGRATIONS.indexOf(CorrectionsRegisteredBy1766640000000);
    expect(index).toBeGreaterThan(0);
    await withNewDatabase('registered_by_migration', async (url) => {
      const before = dataSource(url, MIGRATIONS.slice(0, index));
      await before.initialize();
      await before.runMigrations({ transaction: 'each' });
      const ids = { app: randomUUID(), gone: randomUUID(), org: randomUUID(), sandbox: randomUUID(), user: randomUUID(), g1: randomUUID(), g2: randomUUID() };
      const entry = {
        early: randomUUID(),
        underG1: randomUUID(),
        underG2: randomUUID(),
        afterRevoke: randomUUID(),
        sandbox: randomUUID(),
        ofGoneApp: randomUUID(),
      };
      try {
        await before.query(`INSERT INTO apps (id, name) VALUES ($1, 'Kasseapp')`, [ids.app]);
        await before.query(`INSERT INTO organizations (id, name, environment) VALUES ($1, 'Butik ApS', 'production'), ($2, 'Sandbox', 'sandbox')`, [
          ids.org,
          ids.sandbox,
        ]);
        await before.query(`INSERT INTO users (id, email, totp_secret) VALUES ($1, 'ejer@example.dk', 'x')`, [ids.user]);
        // g1 in force in January, superseded by g2 on 1 February; g2 revoked on 1 March
        await before.query(
          `INSERT INTO grants (organization_id, id, app_id, owner_user_id, scopes, aal, granted_at, expires_at, revoked_at, superseded_at) VALUES
             ($1, $2, $4, $5, '{journal:post}', 'aal2', '2026-01-01', '2027-01-01', NULL, '2026-02-01'),
             ($1, $3, $4, $5, '{journal:post}', 'aal2', '2026-02-01', '2027-02-01', '2026-03-01', NULL)`,
          [ids.org, ids.g1, ids.g2, ids.app, ids.user],
        );
        const post = (org: string, id: string, env: string, app: string, number: number, at: string) =>
          before.query(
            `INSERT INTO journal_entries (organization_id, id, environment, voucher_year, voucher_number, posting_date, currency, app_id, operation_id, created_at)
             VALUES ($1, $2, $3, 2026, $4, '2026-01-01', 'DKK', $5, $6, $7)`,
            [org, id, env, number, app, randomUUID(), at],
          );
        await post(ids.org, entry.early, 'production', ids.app, 1, '2025-12-31T12:00:00Z');
        await post(ids.org, entry.underG1, 'production', ids.app, 2, '2026-01-15T12:00:00Z');
        await post(ids.org, entry.underG2, 'production', ids.app, 3, '2026-02-15T12:00:00Z');
        await post(ids.org, entry.afterRevoke, 'production', ids.app, 4, '2026-03-15T12:00:00Z');
        await post(ids.sandbox, entry.sandbox, 'sandbox', ids.app, 1, '2026-01-15T12:00:00Z');
        await post(ids.sandbox, entry.ofGoneApp, 'sandbox', ids.gone, 2, '2026-01-15T12:00:00Z');
      } finally {
        await before.destroy();
      }

      const after = dataSource(url, MIGRATIONS.slice(0, index + 1));
      await after.initialize();
      try {
        expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual(['CorrectionsRegisteredBy1766640000000']);
        const rows = await after.query(`SELECT id::text AS id, app_name, grant_id::text AS grant_id, reverses FROM journal_entries`);
        const byId = new Map(rows.map((r: { id: string }) => [r.id, r]));
        expect(byId.get(entry.early)).toEqual({ id: entry.early, app_name: 'Kasseapp', grant_id: null, reverses: null });
        expect(byId.get(entry.underG1)).toEqual({ id: entry.underG1, app_name: 'Kasseapp', grant_id: ids.g1, reverses: null });
        expect(byId.get(entry.underG2)).toEqual({ id: entry.underG2, app_name: 'Kasseapp', grant_id: ids.g2, reverses: null });
        expect(byId.get(entry.afterRevoke)).toEqual({ id: entry.afterRevoke, app_name: 'Kasseapp', grant_id: null, reverses: null });
        expect(byId.get(entry.sandbox)).toEqual({ id: entry.sandbox, app_name: 'Kasseapp', grant_id: null, reverses: null });
        expect(byId.get(entry.ofGoneApp)).toEqual({ id: entry.ofGoneApp, app_name: null, grant_id: null, reverses: null });
      } finally {
        await after.destroy();
      }
    });
  });
});
