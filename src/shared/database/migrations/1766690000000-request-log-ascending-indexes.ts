import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The three indexes a request-log page reads, by name, with their columns before the id. */
const INDEXES = [
  ['request_log_app_idx', 'app_id, environment'],
  ['request_log_status_idx', 'app_id, environment, (status / 100)'],
  ['request_log_request_id_idx', 'app_id, environment, request_id'],
] as const;

/**
 * The request log's stream indexes in ascending id order (issue 47, module `developers`): every logged call is
 * inserted into each of them, and a new call's id is the largest of its stream, so each insert lands at the
 * stream's right end — where a B-tree splits its pages unevenly and keeps them full — instead of at its left end
 * (`id DESC`), where every page split left two half-empty pages. A page still reads each stream newest first, as a
 * backward scan (pg-developer.repository.ts orders every key column descending). Measured with pgbench on 500-row
 * inserts: 11–24 % more rows a second, indexes a third smaller (bench/RESULTS.md, "Lever 2: the request log's inserts").
 */
export class RequestLogAscendingIndexes1766690000000 implements MigrationInterface {
  name = 'RequestLogAscendingIndexes1766690000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, columns] of INDEXES) {
      await q.query(`DROP INDEX IF EXISTS ${name}`);
      await q.query(`CREATE INDEX ${name} ON request_log (${columns}, id)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name, columns] of INDEXES) {
      await q.query(`DROP INDEX IF EXISTS ${name}`);
      await q.query(`CREATE INDEX ${name} ON request_log (${columns}, id DESC)`);
    }
  }
}
