-- CONTRACT §20 ("Request log"): a filtered page within 500 ms with 2 M calls in the developer's own log.
-- Run on a scratch database (never the service's):
--   psql -h 127.0.0.1 -U postgres -c 'CREATE DATABASE reqlog_scratch'
--   psql -h 127.0.0.1 -U postgres -d reqlog_scratch -v fill=1 -f bench/request-log-filters.sql
-- `fill=1` creates the table as the migrations leave it and fills it (2 M calls of one app, 522,222 of 50
-- others, ~1 min); without it the queries run on what is there. The statements are the one
-- typeorm-developer.repository.ts requestLog() sends (limit 51, Path contains examines REQUEST_LOG_SCAN = 50,000).
\set apps '{11111111-1111-4111-8111-111111111111,22222222-2222-4222-8222-222222222222}'

\if :{?fill}
CREATE TABLE request_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, app_id uuid NOT NULL, environment text NOT NULL, at timestamptz NOT NULL,
  method text NOT NULL, path text NOT NULL, status integer NOT NULL, code text, pointers text NOT NULL DEFAULT '',
  duration_ms integer NOT NULL, request_id text NOT NULL, client_address text NOT NULL DEFAULT '', idempotency_key_prefix text);
CREATE INDEX request_log_app_idx ON request_log (app_id, environment, id DESC);
CREATE INDEX request_log_at_idx ON request_log (at);
CREATE INDEX request_log_status_idx ON request_log (app_id, environment, (status / 100), id DESC);
CREATE INDEX request_log_request_id_idx ON request_log (app_id, environment, request_id, id DESC);
INSERT INTO request_log (app_id, environment, at, method, path, status, code, duration_ms, request_id)
SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g % 50), 12, '0'))::uuid, 'sandbox', now() - interval '1 day' + g * interval '1 ms', 'GET',
       '/api/partner/sandbox/v1/accounts', 200, NULL, 3, md5(g::text)
  FROM generate_series(1, 300000) g;
INSERT INTO request_log (app_id, environment, at, method, path, status, code, duration_ms, request_id)
SELECT CASE WHEN g % 10 = 0 THEN ('00000000-0000-4000-8000-' || lpad(to_hex(g % 50), 12, '0'))::uuid ELSE '11111111-1111-4111-8111-111111111111'::uuid END,
       'sandbox', now() - interval '12 hours' + g * interval '10 ms', CASE WHEN g % 3 = 0 THEN 'POST' ELSE 'GET' END,
       CASE g % 4 WHEN 0 THEN '/api/partner/sandbox/v1/journal' WHEN 1 THEN '/api/partner/sandbox/v1/journal/prepare'
                  WHEN 2 THEN '/api/partner/sandbox/v1/journal/entries/' || md5(g::text)::uuid ELSE '/api/partner/sandbox/v1/events?limit=' || (g % 100) END,
       CASE WHEN g % 100 = 0 THEN 422 WHEN g % 37 = 0 THEN 400 ELSE 201 END,
       CASE WHEN g % 100 = 0 THEN 'journal_unbalanced' WHEN g % 37 = 0 THEN 'invalid_input' END,
       5, 'req-' || md5('r' || g::text)
  FROM generate_series(1, 2222222) g;
VACUUM ANALYZE request_log;
\endif
\timing on
\echo '--- no filter'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 51)) AS x ORDER BY x.id DESC LIMIT 51)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 51 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE true ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Status 5xx (none in the log)'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' AND (r.status / 100) = 5 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' AND (r.status / 100) = 5 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' AND (r.status / 100) = 5 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' AND (r.status / 100) = 5 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)) AS x ORDER BY x.id DESC LIMIT 51)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 51 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE true ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Status 4xx'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' AND (r.status / 100) = 4 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' AND (r.status / 100) = 4 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' AND (r.status / 100) = 4 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' AND (r.status / 100) = 4 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)) AS x ORDER BY x.id DESC LIMIT 51)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 51 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE true ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Status 2xx'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' AND (r.status / 100) = 2 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' AND (r.status / 100) = 2 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' AND (r.status / 100) = 2 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' AND (r.status / 100) = 2 ORDER BY r.app_id, r.environment, (r.status / 100), r.id DESC LIMIT 51)) AS x ORDER BY x.id DESC LIMIT 51)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 51 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE true ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Request id (one call)'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' AND r.request_id = 'req-' || md5('r1234') ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' AND r.request_id = 'req-' || md5('r1234') ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' AND r.request_id = 'req-' || md5('r1234') ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' AND r.request_id = 'req-' || md5('r1234') ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)) AS x ORDER BY x.id DESC LIMIT 51)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 51 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE true ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Request id (none)'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 51)) AS x ORDER BY x.id DESC LIMIT 51)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 51 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE true ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Path contains, absent'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)) AS x ORDER BY x.id DESC LIMIT 50000)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 50000 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE strpos(r.path, '/operations/') > 0 ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Path contains, common'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)) AS x ORDER BY x.id DESC LIMIT 50000)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 50000 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE strpos(r.path, 'journal') > 0 ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Path contains + Status 4xx, absent'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)) AS x ORDER BY x.id DESC LIMIT 50000)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 50000 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE (r.status / 100) = 4 AND strpos(r.path, '/operations/') > 0 ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Path contains + Status 5xx, absent'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)) AS x ORDER BY x.id DESC LIMIT 50000)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 50000 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE (r.status / 100) = 5 AND strpos(r.path, 'journal') > 0 ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Path contains + Request id (none)'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' AND r.request_id = 'no-such-id' ORDER BY r.app_id, r.environment, r.request_id, r.id DESC LIMIT 50000)) AS x ORDER BY x.id DESC LIMIT 50000)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 50000 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE strpos(r.path, 'journal') > 0 ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
\echo '--- Older page of Path contains, absent (before the 1,000,000th call)'
EXPLAIN (ANALYZE, COSTS off, SUMMARY on)
  WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (
      (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'sandbox' AND r.id < 1000000 ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{11111111-1111-4111-8111-111111111111}'::uuid[]) AND r.environment = 'production' AND r.id < 1000000 ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'sandbox' AND r.id < 1000000 ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)
      UNION ALL (SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY('{22222222-2222-4222-8222-222222222222}'::uuid[]) AND r.environment = 'production' AND r.id < 1000000 ORDER BY r.app_id, r.environment, r.id DESC LIMIT 50000)) AS x ORDER BY x.id DESC LIMIT 50000)
  SELECT p.*, b.scan_end FROM (SELECT CASE WHEN count(*) = 50000 THEN min(id)::text END AS scan_end FROM scanned) AS b
    LEFT JOIN LATERAL (
      SELECT c.* FROM (SELECT r.id FROM scanned r WHERE strpos(r.path, '/operations/') > 0 ORDER BY r.id DESC LIMIT 51) AS s
        CROSS JOIN LATERAL (
          SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms,
                 r.request_id, r.client_address, r.idempotency_key_prefix
            FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
   ORDER BY p.n DESC;
