import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The request log's filters answer from an index (CONTRACT §20, issue 43 finding 8: a filter over 2 M of a
 * developer's own rows took 1–4 s, a backwards primary-key scan discarding 2,003,843 rows), module
 * `developers`. Each stream of a page (one app, one environment) is read newest first from
 * `request_log_app_idx`; Status reads `request_log_status_idx` (the class, `status / 100`, then id, so a page of
 * 5xx stops after 51 rows however rare they are) and Request id `request_log_request_id_idx`. Path contains has
 * no index: its page examines a bounded number of calls (developer.repository.ts, REQUEST_LOG_SCAN).
 */
export class RequestLogFilters1766610000000 implements MigrationInterface {
  name = 'RequestLogFilters1766610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS request_log_status_idx ON request_log (app_id, environment, (status / 100), id DESC)`);
    await q.query(`CREATE INDEX IF NOT EXISTS request_log_request_id_idx ON request_log (app_id, environment, request_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS request_log_request_id_idx`);
    await q.query(`DROP INDEX IF EXISTS request_log_status_idx`);
  }
}
