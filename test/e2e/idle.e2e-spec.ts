import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { PostgresNotifications } from '../../src/shared/database/database-notifications';
import { POOL_IDLE_TIMEOUT_MS } from '../../src/shared/database/data-source';
import { EMBEDDED_STORE_NETWORKS } from '../../src/shared/domain/allowed-networks';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import { withNewDatabase } from '../support/new-database';
import { consolePost } from '../support/production-fixtures';
import { serviceEnv, startService, stopService, tempDirsOfSpec, waitForReady } from '../support/service-process';
import { createTestApp, describeOnPostgres, TEST_SECRETS_KEY } from '../support/test-app';
import { eventually } from '../support/wait';

/** Issue 47's bound: an idle instance runs at most this many transactions a second. */
const IDLE_TRANSACTIONS_PER_SECOND = 1;
/** The window over which the idle rate is measured: a minute, so that it holds each once-a-minute job once. */
const WINDOW_MS = 60_000;

/** Transactions (committed and rolled back) of database `name` so far, read from another database's session. */
async function transactionsOf(admin: Client, name: string): Promise<number> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query(`SELECT (xact_commit + xact_rollback)::bigint::text AS n FROM pg_stat_database WHERE datname = $1`, [name]);
  return Number(rows[0].n);
}

/**
 * Issue 47, an idle instance costs nothing: the built service on its own PostgreSQL database, doing nothing,
 * runs at most one transaction a second (pg_stat_database of its database over a window) — the webhook
 * dispatcher and the other background jobs wake on LISTEN/NOTIFY, on timers to their due work and on slow
 * safety polls, instead of asking the database ten times a second; and work written through another instance
 * still reaches this one at once: NOTIFY reaches every listener of the database.
 */
describeOnPostgres('an idle instance (issue 47)', () => {
  const tempDir = tempDirsOfSpec();

  it(`runs at most ${IDLE_TRANSACTIONS_PER_SECOND} transaction a second on its database while idle`, async () => {
    await withNewDatabase('idle', async (url) => {
      const name = new URL(url).pathname.slice(1);
      const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const { env, origin } = await serviceEnv(tempDir('partner-api-idle-'));
      const service = startService({ ...env, DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEY });
      try {
        await waitForReady(`${origin}/health/ready`, 60_000, service);
        // the new database's tables, just made by the migrations, analyzed now: autovacuum (whose transactions
        // count in pg_stat_database too) has nothing left to do in the window, as on a database in service
        const own = new Client({ connectionString: url });
        await own.connect();
        await own.query('VACUUM ANALYZE');
        await own.end();
        // a backend reports its counters when it is next used, or when it ends: the start's sessions (the
        // migrations') would report their hundreds of transactions inside the window. The pool closes them once
        // idle for POOL_IDLE_TIMEOUT_MS; that settling time is part of the measurement, not a wait for an event
        await new Promise((r) => setTimeout(r, POOL_IDLE_TIMEOUT_MS + 15_000));
        const before = await transactionsOf(admin, name);
        const started = Date.now();
        // a rate is measured over a window: this wait is the measurement, not a wait for an event (backends
        // report their counters up to 10 s late, at both ends of the window alike)
        await new Promise((r) => setTimeout(r, WINDOW_MS));
        const ran = (await transactionsOf(admin, name)) - before;
        const perSecond = ran / ((Date.now() - started) / 1000);
        expect(perSecond).toBeLessThanOrEqual(IDLE_TRANSACTIONS_PER_SECOND);
        expect(service.child.exitCode).toBeNull();
      } finally {
        expect(await stopService(service)).toBe(0);
        await admin.end();
      }
    });
  }, 300_000);

  it('an event written through one instance (its dispatcher stopped) is delivered by the other within 2 s, each of several', async () => {
    await withNewDatabase('idle_two', async (url) => {
      const received: number[] = [];
      const receiver = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          received.push(Date.now());
          res.end('ok');
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      // instance B: the built service, the only dispatcher of the database
      const { env, origin } = await serviceEnv(tempDir('partner-api-idle-b-'));
      const b = startService({ ...env, DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEY, WEBHOOK_ALLOWED_NETWORKS: EMBEDDED_STORE_NETWORKS });
      let a: Awaited<ReturnType<typeof createTestApp>> | null = null;
      try {
        await waitForReady(`${origin}/health/ready`, 60_000, b);
        // instance A: this process, on the same database, its dispatcher stopped: it only writes
        a = await createTestApp({ database: { kind: 'postgres', url } });
        await a.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
        const p = await aSandboxProject(a);
        const endpoint = await consolePost(a, `/apps/${p.app_id}/webhook-endpoints`, {
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
          environment: 'sandbox',
        });
        expect(endpoint.status).toBe(201);
        const ids = p.accounts.map((x) => x.id);
        // several events, each after the previous one arrived: with B polling only every SAFETY_POLL_MS
        // (no notification reaching it), each would wait for that poll, seconds on average
        const delays: number[] = [];
        for (let i = 0; i < 4; i++) {
          const res = await a
            .partner()
            .post(`${SANDBOX}/journal`)
            .set('Authorization', `Bearer ${p.token}`)
            .set('Idempotency-Key', randomUUID())
            .send(aJournal(ids));
          expect(res.status).toBe(201);
          const committed = Date.now();
          await eventually(() => received.length > i, `event ${i + 1} at the receiver`, 15_000);
          delays.push(received[i] - committed);
        }
        expect(delays.filter((ms) => ms > 2_000)).toEqual([]);
      } finally {
        await a?.close();
        expect(await stopService(b)).toBe(0);
        await new Promise<void>((r) => receiver.close(() => r()));
      }
    });
  }, 120_000);

  it('the LISTEN connection comes back after the database ended it, and notifications arrive again; closed, it stays closed', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const channel = `idle_test_${randomUUID().replace(/-/g, '')}`;
    const states: boolean[] = [];
    let notified = 0;
    const listening = new PostgresNotifications(url).listen(channel, { notified: () => void notified++, listening: (up) => void states.push(up) });
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      await eventually(() => states.at(-1) === true, 'the listener up', 15_000);
      await admin.query(`SELECT pg_notify($1, '')`, [channel]);
      await eventually(() => notified === 1, 'the first notification', 15_000);
      // a database fault: the server ends the listener's session
      const { rows } = await admin.query(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'partner-api-listen' AND query = $1`,
        [`LISTEN "${channel}"`],
      );
      expect(rows).toEqual([{ ended: true }]);
      await eventually(() => states.length >= 3 && states.at(-1) === true, 'lost, then up again', 15_000);
      expect(states.slice(0, 3)).toEqual([true, false, true]);
      await admin.query(`SELECT pg_notify($1, '')`, [channel]);
      await eventually(() => notified === 2, 'a notification after the reconnection', 15_000);
      await listening.close();
      await eventually(
        async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1`, [`LISTEN "${channel}"`])).rows[0].n === 0,
        'the listener gone',
        15_000,
      );
      await admin.query(`SELECT pg_notify($1, '')`, [channel]);
      expect(states.at(-1)).toBe(false);
      expect(notified).toBe(2);
    } finally {
      await listening.close();
      await admin.end();
    }
  }, 60_000);
});
