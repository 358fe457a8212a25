import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/shared/database/migrations';
import { WebhookTools1766460000000 } from '../../src/shared/database/migrations/1766460000000-webhook-tools';
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
 * Migration 1766460000000 (CONTRACT §10 "under the app's own id"): a developer's sandbox project made
 * before it sits under a hidden app; the migration moves every row that named that app to the
 * developer's app and removes the hidden app, leaving other apps alone.
 */
describeOnPostgres("migration WebhookTools1766460000000: developers' sandbox projects move to the app's own id", () => {
  it("moves the hidden sandbox app's project, tokens, mandate, endpoints and events to the developer's app, and drops the hidden app", async () => {
    const index = MIGRATIONS.indexOf(WebhookTools1766460000000);
    expect(index).toBeGreaterThan(0);
    await withNewDatabase('wh_tools_migration', async (url) => {
      const before = dataSource(url, MIGRATIONS.slice(0, index));
      await before.initialize();
      await before.runMigrations({ transaction: 'each' });
      const ids = {
        developer: randomUUID(),
        devApp: randomUUID(),
        hidden: randomUUID(),
        other: randomUUID(),
        org: randomUUID(),
        project: randomUUID(),
        endpoint: randomUUID(),
        otherEndpoint: randomUUID(),
        event: randomUUID(),
        generation: randomUUID(),
      };
      try {
        await before.query(`INSERT INTO apps (id, name) VALUES ($1, 'Bogføring Pro'), ($2, 'Bogføring Pro (sandbox app)'), ($3, 'Someone else')`, [
          ids.devApp,
          ids.hidden,
          ids.other,
        ]);
        await before.query(`INSERT INTO organizations (id, name, environment) VALUES ($1, 'Sandbox', 'sandbox')`, [ids.org]);
        await before.query(`INSERT INTO sandbox_projects (id, name, organization_id, app_id) VALUES ($1, 'Bogføring Pro', $2, $3)`, [
          ids.project,
          ids.org,
          ids.hidden,
        ]);
        await before.query(`INSERT INTO sandbox_generations (id, project_id) VALUES ($1, $2)`, [ids.generation, ids.project]);
        await before.query(`INSERT INTO access_tokens (token_hash, environment, organization_id, app_id, generation_id) VALUES ('h1', 'sandbox', $1, $2, $3)`, [
          ids.org,
          ids.hidden,
          ids.generation,
        ]);
        await before.query(`INSERT INTO mandates (organization_id, id, app_id) VALUES ($1, $2, $3)`, [ids.org, randomUUID(), ids.hidden]);
        await before.query(`INSERT INTO developers (id, email, password_hash, totp_secret) VALUES ($1, 'd@example.dk', 'x', 'x')`, [ids.developer]);
        await before.query(
          `INSERT INTO developer_apps (id, developer_id, app_id, sandbox_project_id, sandbox_organization_id, sandbox_app_id) VALUES ($1, $2, $3, $4, $5, $6)`,
          [randomUUID(), ids.developer, ids.devApp, ids.project, ids.org, ids.hidden],
        );
        await before.query(
          `INSERT INTO webhook_endpoints (id, app_id, environment, url, secret) VALUES ($1, $2, 'sandbox', 'https://a.example/h', 's'), ($3, $4, 'sandbox', 'https://b.example/h', 's')`,
          [ids.endpoint, ids.hidden, ids.otherEndpoint, ids.other],
        );
        await before.query(
          `INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body) VALUES ($1, $2, 'sandbox', $3, 'operation.completed', '{}')`,
          [ids.org, ids.event, ids.hidden],
        );
        await before.query(`INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, next_attempt_at) VALUES ($1, $2, $3, $4, now())`, [
          ids.org,
          randomUUID(),
          ids.event,
          ids.endpoint,
        ]);
      } finally {
        await before.destroy();
      }

      const after = dataSource(url, MIGRATIONS.slice(0, index + 1));
      await after.initialize();
      try {
        expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual(['WebhookTools1766460000000']);
        const appOf = async (sql: string, id: string) => (await after.query(sql, [id]))[0]?.app_id as string;
        expect(await appOf(`SELECT app_id::text AS app_id FROM sandbox_projects WHERE id = $1`, ids.project)).toBe(ids.devApp);
        expect(await appOf(`SELECT app_id::text AS app_id FROM access_tokens WHERE token_hash = $1`, 'h1')).toBe(ids.devApp);
        expect(await appOf(`SELECT app_id::text AS app_id FROM mandates WHERE organization_id = $1`, ids.org)).toBe(ids.devApp);
        expect(await appOf(`SELECT app_id::text AS app_id FROM webhook_endpoints WHERE id = $1`, ids.endpoint)).toBe(ids.devApp);
        expect(await appOf(`SELECT app_id::text AS app_id FROM webhook_endpoints WHERE id = $1`, ids.otherEndpoint)).toBe(ids.other);
        expect(await appOf(`SELECT app_id::text AS app_id FROM webhook_outbox WHERE id = $1`, ids.event)).toBe(ids.devApp);
        expect(await appOf(`SELECT sandbox_app_id::text AS app_id FROM developer_apps WHERE developer_id = $1`, ids.developer)).toBe(ids.devApp);
        const apps = (await after.query(`SELECT id::text AS id FROM apps ORDER BY name`)).map((r: { id: string }) => r.id);
        expect(apps.sort()).toEqual([ids.devApp, ids.other].sort());
        // the delivery kept its round 0 and a recovery may add round 1 beside it
        const [{ round }] = await after.query(`SELECT round FROM webhook_deliveries WHERE event_id = $1`, [ids.event]);
        expect(round).toBe(0);
        await after.query(
          `INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, next_attempt_at, round) VALUES ($1, $2, $3, $4, now(), 1)`,
          [ids.org, randomUUID(), ids.event, ids.endpoint],
        );

        // and back down: the schema returns to the one before (the recovered round goes)
        await after.undoLastMigration({ transaction: 'each' });
        const [{ n }] = await after.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`, [ids.event]);
        expect(n).toBe(1);
      } finally {
        await after.destroy();
      }
    });
  });
});
