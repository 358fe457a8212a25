import type { Client } from 'pg';

/** Polls `check` until it holds (no fixed sleeps: a test waits for the condition it needs). */
export async function eventually(check: () => boolean | Promise<boolean>, what = 'a condition', timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The other sessions of `client`'s database, as JSON: what each runs, waits on, and since when (a failure's diagnosis). */
export async function databaseSessions(client: Client): Promise<string> {
  const { rows } = await client.query(
    `SELECT pid, state, wait_event_type, wait_event, backend_xid, now() - state_change AS since, left(query, 200) AS query
       FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return JSON.stringify(rows, null, 1);
}

/**
 * Waits until a session of this database is blocked on a lock (PostgreSQL's own view of it): the
 * request under test has reached the lock the test holds. On timeout the error lists the sessions.
 */
export async function untilBlockedOnLock(client: Client, timeoutMs = 15_000): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      return rows[0].n > 0;
    },
    'a session blocked on a lock',
    timeoutMs,
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}; the sessions: ${await databaseSessions(client)}`);
  });
}

/** Lets every callback already queued run, a few event-loop turns over (a negative check's bound). */
export async function eventLoopTurns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}
