import { type Client } from 'pg';
import { PrivateCluster } from './support/pg-cluster';
import { call, CONSOLE_KEY, freePort, Instance, Receiver, removeInstanceData, RetryingClients, sleep } from './support/harness';

/**
 * CONTRACT §16, failover (issue 25): a private primary with a synchronous standby, two instances of the
 * built service on the multi-host URI (`…@127.0.0.1:p1,127.0.0.1:p2/faults?target_session_attrs=read-write`),
 * retrying clients writing products and postings at full speed. The primary is stopped (immediate
 * mode), then — with the promoted standby as primary and a new synchronous standby on the first port —
 * its postmaster is killed with SIGKILL; each time the standby is promoted (`pg_ctl promote`). Nothing
 * answered 2xx is lost, exactly-once and gapless vouchers hold, the switch is 503 with Retry-After only,
 * both instances write again within 15 s of the promotion without a restart, and every committed
 * write's webhook is delivered.
 */
jest.setTimeout(180_000);

/** How long a client waits for one answer: a request hanging through the switch fails the test. */
const CLIENT_TIMEOUT_MS = 20_000;
const RECOVERY_BOUND_MS = 15_000;

interface Project {
  token: string;
  organization_id: string;
  app_id: string;
  accounts: Array<{ id: string }>;
}

const clusters: PrivateCluster[] = [];
let a: Instance;
let b: Instance;
const receiver = new Receiver();
let clients: RetryingClients;
let project: Project;
let loadRunning = false;
let loadWorkers: Promise<void>[] = [];
let seq = 0;
let writable: PrivateCluster;
const firstPort = { value: 0 };

const product = () => ({ code: `FO-${process.pid}-${++seq}`, name: 'Failover' });
const journal = () => ({
  posting_date: '2026-06-15',
  lines: [
    { account_id: project.accounts[0].id, debit_minor: 10_000 },
    { account_id: project.accounts[1].id, credit_minor: 10_000 },
  ],
});

function startLoad(workers: number): void {
  loadRunning = true;
  loadWorkers = Array.from({ length: workers }, async (_, w) => {
    while (loadRunning) {
      if (w % 2 === 0) await clients.create('product', project.token, product(), { deadlineMs: 60_000 });
      else await clients.create('journal', project.token, journal(), { deadlineMs: 60_000 });
    }
  });
}

async function stopLoad(): Promise<void> {
  loadRunning = false;
  await Promise.all(loadWorkers);
}

/** The primary waits for `standby` to flush every commit before it answers (synchronous replication). */
async function makeSynchronous(primary: PrivateCluster, standby: string): Promise<void> {
  const admin = await primary.client();
  try {
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = '${standby}'`);
    await admin.query(`ALTER SYSTEM SET synchronous_commit = 'on'`);
    await admin.query('SELECT pg_reload_conf()');
    const end = Date.now() + 30_000;
    while ((await admin.query(`SELECT 1 FROM pg_stat_replication WHERE application_name = $1 AND sync_state = 'sync'`, [standby])).rowCount === 0) {
      if (Date.now() > end) throw new Error(`${standby} never became a synchronous standby`);
      await sleep(100);
    }
  } finally {
    await admin.end();
  }
}

async function consolePost(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await call(`http://127.0.0.1:${a.consolePort}`, 'POST', `/console/v1${path}`, { headers: { authorization: `Bearer ${CONSOLE_KEY}` }, body });
  if (res.status !== 201) throw new Error(`console ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

/**
 * Under load: `fail` takes the primary away, readiness is 503 on both instances, `standby` is promoted;
 * then each instance must write again within 15 s, and every answer of the switch is an HTTP 503 with
 * Retry-After (no 500, no socket error, no request past the client timeout). The recovery times.
 */
async function failover(fail: () => void, standby: PrivateCluster): Promise<Record<string, number>> {
  const before = clients.attempts.length;
  const ackedBefore = clients.successes.length;
  startLoad(6);
  await sleep(3_000);
  expect(clients.successes.length).toBeGreaterThan(ackedBefore + 10); // writing at full speed before the fault
  fail();
  await sleep(2_000);
  for (const i of [a, b]) {
    const ready = await call(i.base, 'GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBeDefined();
  }
  standby.promote();
  const promotedAt = Date.now();
  writable = standby;
  const took: Record<string, number> = {};
  await Promise.all(
    [a, b].map(async (i) => {
      const s = await clients.create('product', project.token, product(), { prefer: i, deadlineMs: RECOVERY_BOUND_MS });
      took[i.name] = s ? s.committedBy - promotedAt : Number.POSITIVE_INFINITY;
    }),
  );
  await sleep(2_000);
  await stopLoad();
  const during = clients.attempts.slice(before);
  expect(took.A).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
  expect(took.B).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
  const fivexx = during.filter((x) => x.status !== undefined && x.status >= 500);
  expect(fivexx.length).toBeGreaterThan(0); // the switch was felt…
  expect(fivexx.filter((x) => x.status !== 503 || !x.retryAfter || x.code !== 'service_unavailable')).toEqual([]); // …as 503 only
  expect(during.filter((x) => x.error !== undefined)).toEqual([]); // every request answered, none past the client timeout
  expect(clients.failures).toEqual([]);
  return took;
}

beforeAll(async () => {
  firstPort.value = await freePort();
  const secondPort = await freePort();
  const primary = await PrivateCluster.create(firstPort.value);
  clusters.push(primary);
  const standby = await PrivateCluster.standbyOf(primary, secondPort, 'standby1');
  clusters.push(standby);
  await makeSynchronous(primary, 'standby1');
  writable = primary;
  const uri = `postgres://postgres@127.0.0.1:${firstPort.value},127.0.0.1:${secondPort}/faults?target_session_attrs=read-write`;
  a = new Instance('A', await freePort(), await freePort(), uri);
  b = new Instance('B', await freePort(), await freePort(), uri);
  await a.start(); // migrates
  await b.start();
  clients = new RetryingClients(() => [a, b], CLIENT_TIMEOUT_MS);
  receiver.setSecret('');
  const url = await receiver.listen();
  project = (await consolePost('/sandbox/projects', { name: 'Failover' })) as unknown as Project;
  const endpoint = await consolePost(`/apps/${project.app_id}/webhook-endpoints`, { url, environment: 'sandbox' });
  receiver.setSecret(String(endpoint.secret));
}, 180_000);

afterAll(async () => {
  loadRunning = false;
  for (const i of [a, b].filter(Boolean)) {
    if (process.env.FAULTS_DEBUG || (i.exitCode !== undefined && i.exitCode !== 0))
      process.stderr.write(`instance ${i.name} exited ${i.exitCode}:\n${i.stderr.slice(-4000)}\n`);
  }
  await Promise.all([a, b].filter(Boolean).map((i) => i.kill()));
  await receiver.close();
  for (const c of clusters) c.destroy();
  removeInstanceData();
}, 60_000);

describe('failover to a synchronous standby under write load (CONTRACT §16)', () => {
  it('the primary stopped in immediate mode, the standby promoted: 503 with Retry-After during the switch, both instances write again within 15 s', async () => {
    const [primary, standby] = clusters;
    const took = await failover(() => primary.stop('immediate'), standby);
    process.stdout.write(`failover (immediate stop): writes again after promotion A ${took.A} ms, B ${took.B} ms\n`);
  });

  it('the new primary’s postmaster killed with SIGKILL, a new synchronous standby (first in the URI) promoted: the same', async () => {
    const [old, primary] = clusters;
    old.destroy(); // the first port gets a standby of the new primary: the URI's first host is now a standby
    const standby = await PrivateCluster.standbyOf(primary, firstPort.value, 'standby2');
    clusters.push(standby);
    await makeSynchronous(primary, 'standby2');
    // new connections skip the standby on the first host
    for (const i of [a, b]) expect((await call(i.base, 'GET', '/health/ready')).status).toBe(200);
    const took = await failover(() => primary.killPostmaster(), standby);
    process.stdout.write(`failover (SIGKILL of the postmaster): writes again after promotion A ${took.A} ms, B ${took.B} ms\n`);
  });

  it('invariants on the last primary: every 2xx write is there exactly once, vouchers gapless, a receipt and a delivered webhook each', async () => {
    const db: Client = await writable.client();
    try {
      const org = project.organization_id;
      const acked = clients.successes;
      expect(new Set(acked.map((s) => s.key)).size).toBe(acked.length);
      // exactly once: the stored rows are exactly the acknowledged ones — none lost in a switch, none doubled by a retry
      const products = (await db.query(`SELECT id, code FROM products WHERE organization_id = $1`, [org])).rows as Array<{ id: string; code: string }>;
      expect(products.map((p) => p.id).sort()).toEqual(
        acked
          .filter((s) => s.kind === 'product')
          .map((s) => s.id)
          .sort(),
      );
      expect(new Set(products.map((p) => p.code)).size).toBe(products.length);
      const entries = (await db.query(`SELECT id, voucher_number FROM journal_entries WHERE organization_id = $1`, [org])).rows as Array<{
        id: string;
        voucher_number: string;
      }>;
      const ackJournals = acked.filter((s) => s.kind === 'journal');
      expect(entries.map((e) => e.id).sort()).toEqual(ackJournals.map((s) => s.id).sort());
      const vouchers = entries.map((e) => Number(e.voucher_number)).sort((x, y) => x - y);
      expect(vouchers).toEqual(Array.from({ length: entries.length }, (_, i) => i + 1));
      expect(ackJournals.map((s) => Number(s.voucher)).sort((x, y) => x - y)).toEqual(vouchers);
      // a retry of a key whose first attempt committed replayed it (never a second row, checked above)
      const retried = acked.filter((s) => clients.attempts.filter((x) => x.key === s.key).length > 1);
      expect(retried.length).toBeGreaterThan(0);
      const keysInStore = (
        await db.query(`SELECT idempotency_key, count(*)::int AS n FROM idempotency_records WHERE organization_id = $1 GROUP BY 1 HAVING count(*) > 1`, [org])
      ).rows;
      expect(keysInStore).toEqual([]);
      const ops = acked.map((s) => s.operationId);
      const receipts = (await db.query(`SELECT count(*)::int AS n FROM operation_receipts WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [org, ops]))
        .rows[0].n;
      expect(receipts).toBe(ops.length);
      // every committed write's webhook, delivered after the switches
      const deadline = Date.now() + 45_000;
      while (ops.some((op) => !receiver.answered(op)) && Date.now() < deadline) await sleep(250);
      expect(ops.filter((op) => !receiver.answered(op))).toEqual([]);
      expect(receiver.badSignatures).toBe(0);
      expect(clients.attempts.filter((x) => x.status === 500)).toEqual([]);
      process.stdout.write(
        `failover: ${acked.length} acknowledged writes (${retried.length} retried), ${clients.attempts.filter((x) => x.status === 503).length} answers 503\n`,
      );
    } finally {
      await db.end();
    }
  }, 90_000);
});
