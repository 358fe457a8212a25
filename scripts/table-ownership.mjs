/**
 * Which module (or `shared/web`, the page kernel) owns which table (docs/architecture.md): only the owner names its table in SQL. Other
 * modules reach its data through its index.ts (services, ports) or compose its SQL parts (sql.ts).
 * A module is named by its folder: src/modules/<name>/, or src/modules/auth/<name>/ for the six auth
 * modules (access, organizations, apps, grants, sandbox, consent).
 * Checked by scripts/check-table-ownership.mjs (npm run lint:deps, part of npm test).
 */
export const TABLE_OWNERS = {
  organizations: 'organizations',
  accounts: 'organizations',
  tax_codes: 'organizations',
  users: 'organizations',
  organization_owners: 'organizations',
  second_factor_failures: 'organizations',
  second_factor_lockouts: 'organizations',
  apps: 'apps',
  app_revisions: 'apps',
  grants: 'grants',
  grant_accounts: 'grants',
  mandates: 'grants',
  sandbox_projects: 'sandbox',
  sandbox_generations: 'sandbox',
  access_tokens: 'access',
  oauth_clients: 'consent',
  authorization_codes: 'consent',
  // the page kernel (src/shared/web): sessions and sign-in lockouts of the consent pages and the developer console
  web_sessions: 'shared/web',
  sign_in_lockouts: 'shared/web',
  sign_in_failures: 'shared/web',
  products: 'products',
  periods: 'journal',
  voucher_counters: 'journal',
  journal_entries: 'journal',
  journal_lines: 'journal',
  attachments: 'attachments',
  attachment_contents: 'attachments',
  attachment_counters: 'attachments',
  attachment_storage: 'attachments',
  operation_receipts: 'receipts',
  idempotency_records: 'idempotency',
  webhook_outbox: 'webhooks',
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  developers: 'developers',
  developer_apps: 'developers',
  request_log: 'developers',
  developer_signups: 'developers',
  developer_quota_events: 'developers',
  // infrastructure: one fingerprint per SECRETS_KEY version (CONTRACT §8), written and read at start and by npm run migrate
  secrets_key_fingerprints: 'shared/crypto',
};

/**
 * Files that name other owners' tables as data, not as SQL they run on their own: each with the tables and
 * why. The check fails when a listed name no longer occurs.
 */
export const NAMED_AS_DATA = [
  {
    file: 'shared/crypto/secret-box.ts',
    tables: ['users', 'webhook_endpoints', 'developers'],
    why: 'the sealed secret columns (CONTRACT §8): start-up sealing and the key check find the secrets to seal or open there',
  },
];

/**
 * Known violations still to be removed: `file` (relative to src/) names `table` it does not own. Each
 * is listed with the reason it is still here; the check fails on any violation not listed, and on a
 * listed one that is gone (so this list only shrinks).
 */
export const KNOWN_VIOLATIONS = [];
