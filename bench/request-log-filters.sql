-- CONTRACT §20 ("Request log"): a filtered page within 500 ms with 2 M calls in the developer's own log.
-- The fill of bench/request-log-filters.mjs, on a scratch database (never the service's):
--   psql -h 127.0.0.1 -U postgres -c 'CREATE DATABASE reqlog_scratch'
--   psql -h 127.0.0.1 -U postgres -d reqlog_scratch -f bench/request-log-filters.sql
-- The table as the migrations leave it (1766470000000, 1766610000000), 2 M calls of one app (its sandbox id
-- 1111…) and 522,222 of 50 others, ~1-2 min.
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
