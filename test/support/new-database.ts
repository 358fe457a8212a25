import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Runs `work` on a NEW database of the jest worker's PostgreSQL server (empty: the service migrates it
 * when an app starts on it), then drops it, whatever `work` did. PostgreSQL runs only.
 */
export async function withNewDatabase<T>(prefix: string, work: (url: string) => Promise<T>): Promise<T> {
  const workerUrl = new URL(process.env.TEST_DATABASE_URL as string);
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(workerUrl);
  url.pathname = `/${name}`;
  const admin = new Client({ connectionString: workerUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
