import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { NamedStatementClient } from '../../src/shared/database/named-statement-client';
import { Sql } from '../../src/shared/database/sql';
import { promotedAfterFullCollection, requestBody } from '../support/promotion';
import { itOnPostgres } from '../support/test-app';

/**
 * Not through HTTP: the driver on the jest worker's own PostgreSQL database, as the service's pool is
 * configured (named statements). Sql.session is the path of batched final postings.
 */
describe('Sql.session on PostgreSQL', () => {
  itOnPostgres('does not keep finished sessions alive after a full collection while sessions are in flight', async () => {
    // The bug: through pg's promise form (`await client.query(text, values)`) finished sessions were
    // kept alive into the old generation; with postings batched the service then promoted ~640 KB per
    // scavenge (peak RSS ~245 MB instead of ~195). Each session here carries a request-sized body.
    const pool = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 10, Client: NamedStatementClient });
    const sql = new Sql({ driver: { master: pool } } as unknown as DataSource);
    let sessions = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    const client = async (): Promise<void> => {
      while (sessions < stopAt) {
        const body = requestBody();
        await sql.session(async (query) => {
          await query('BEGIN');
          await query('SELECT $1::int AS n', [body.lines.length]);
          await query('COMMIT');
        });
        sessions++;
      }
    };
    try {
      const clients = Array.from({ length: 16 }, client);
      await new Promise((resolve) => setTimeout(resolve, 500)); // connections open, statements prepared
      const promoted = await promotedAfterFullCollection(async () => {
        stopAt = sessions + 5000;
        await Promise.all(clients);
      });
      // through the promise form: ~4.5 MB over 5,000 sessions; through the callback form: ~0
      expect(promoted).toBeLessThan(2 ** 20);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
