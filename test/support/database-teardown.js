/** Jest globalTeardown of the e2e project: drops the per-worker databases database-setup.js created. */
const { Client } = require('pg');

module.exports = async function databaseTeardown() {
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
