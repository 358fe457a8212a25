/**
 * setupFiles of the e2e project: each test file sees TEST_DATABASE_URL = its jest worker's own database
 * (database-setup.js), or no TEST_DATABASE_URL on PGlite.
 */
const chosen = process.env.PARTNER_TEST_DB;
if (chosen && chosen !== 'pglite') {
  process.env.TEST_DATABASE_URL = chosen.replace('{worker}', process.env.JEST_WORKER_ID ?? '1');
} else if (chosen === 'pglite') {
  delete process.env.TEST_DATABASE_URL;
}
