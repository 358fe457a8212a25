/**
 * Jest globalTeardown of the e2e project: drops the databases database-setup.js created (the template and
 * one per worker), removes the dumped PGlite template, and deletes the Redis keys under this run's prefix
 * (only those: the prefix is the run's own).
 */
const { rmSync } = require('node:fs');
const { Client } = require('pg');
const Redis = require('ioredis');

async function deleteRunKeys(url, prefix) {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    // no Redis: the tests that need it wrote nothing
  } finally {
    redis.disconnect();
  }
}

module.exports = async function databaseTeardown() {
  if (process.env.PARTNER_TEST_TMP) rmSync(process.env.PARTNER_TEST_TMP, { recursive: true, force: true });
  if (process.env.PARTNER_TEST_REDIS_PREFIX) await deleteRunKeys(process.env.TEST_REDIS_URL, process.env.PARTNER_TEST_REDIS_PREFIX);
  const names = (process.env.PARTNER_TEST_DB_NAMES ?? '').split(',').filter(Boolean);
  if (names.length === 0) return;
  const admin = new Client({ connectionString: process.env.PARTNER_TEST_DB_ADMIN, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
};
