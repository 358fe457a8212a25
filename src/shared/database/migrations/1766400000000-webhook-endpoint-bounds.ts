import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35, finding 1 (docs/adr/0010-self-service-webhooks-bounded.md):
 * - `webhook_endpoints.host`: the URL's host name (lower case, no trailing dot), so that the endpoints
 *   one developer aims at one host can be counted (the cap per host). Existing rows get it from their
 *   URL, which the service stored in WHATWG normal form (lower-case host, IPv6 in brackets).
 * - `webhook_attempts.address` and `webhook_deliveries.last_address`: the address that answered (the
 *   vetted address the socket was pinned to), so that a status code is never shown once that address
 *   would be refused (CONTRACT §9: private networks only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true).
 */
export class WebhookEndpointBounds1766400000000 implements MigrationInterface {
  name = 'WebhookEndpointBounds1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN host text`);
    await q.query(`UPDATE webhook_endpoints SET host = rtrim(lower(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://(\\[[^]]*\\]|[^/:?#]*)')), '.')`);
    await q.query(`ALTER TABLE webhook_attempts ADD COLUMN address text`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN last_address text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN last_address`);
    await q.query(`ALTER TABLE webhook_attempts DROP COLUMN address`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN host`);
  }
}
