import { DataSource } from 'typeorm';
import { PgPool } from '../../src/shared/database/pg-pool';
import { Sql } from '../../src/shared/database/sql';
import { aSandboxProject, SANDBOX } from '../support/fixtures';
import { createTestApp } from '../support/test-app';

/**
 * The service owns its pool (issue 48): one PgPool per process, made from the configuration, under both
 * TypeORM (transactions, migrations) and Sql, and closed when the service stops. On either store.
 */
describe('the service pool', () => {
  it('is the one pool under TypeORM and Sql, answers through HTTP, and is closed when the service stops', async () => {
    const app = await createTestApp();
    const pool = app.apps.partner.get(PgPool);
    let closed = false;
    try {
      // the same instance on both listeners' providers
      expect(app.apps.console?.get(PgPool)).toBe(pool);
      const project = await aSandboxProject(app);
      const accounts = await app.partner().get(`${SANDBOX}/accounts`).set('Authorization', `Bearer ${project.token}`);
      expect(accounts.status).toBe(200);
      // a statement through TypeORM and one through Sql check a connection out of the same pool
      const checkouts: string[] = [];
      const count = () => void checkouts.push('checkout');
      const event = pool.kind === 'postgres' ? 'acquire' : null;
      if (event) pool.driver.on(event, count);
      await app.apps.partner.get(DataSource).query('SELECT 1');
      await app.apps.partner.get(Sql).query('SELECT 1', []);
      if (event) {
        pool.driver.off(event, count);
        expect(checkouts).toEqual(['checkout', 'checkout']);
      }
      await app.close();
      closed = true;
      // (on PGlite a statement after the close would open a new embedded store: not asked)
      if (pool.kind === 'postgres') {
        expect((pool.driver as unknown as { ended: boolean }).ended).toBe(true);
        await expect(app.apps.partner.get(Sql).query('SELECT 1', [])).rejects.toBeDefined();
      }
    } finally {
      if (!closed) await app.close();
    }
  });
});
