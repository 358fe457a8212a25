-- The SQL the service issues for one first-time product create (token look-up, then one transaction).
SELECT t.environment FROM access_tokens t JOIN apps a ON a.id = t.app_id
  LEFT JOIN sandbox_generations sg ON sg.id = t.generation_id LEFT JOIN sandbox_projects p ON p.id = sg.project_id
  LEFT JOIN grants g ON g.organization_id = t.organization_id AND g.id = t.grant_id
 WHERE t.token_hash = md5(random()::text);
BEGIN;
INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, grant_id, response)
VALUES (:org, 'sandbox', :app, gen_random_uuid()::text, 'product.create', md5(random()::text), NULL, '{"id":"x"}')
ON CONFLICT (organization_id, environment, app_id, idempotency_key) DO NOTHING RETURNING idempotency_key AS k \gset
INSERT INTO products (organization_id, id, environment, code, name, description, kind, unit, unit_price_minor, app_id, operation_id)
VALUES (:org, gen_random_uuid(), 'sandbox', 'PG-' || gen_random_uuid()::text, 'pgbench product', NULL, 'services', 'stk', 12500, :app, gen_random_uuid())
RETURNING id AS pid, operation_id AS opid \gset
WITH receipt AS (INSERT INTO operation_receipts (organization_id, id, environment, app_id, kind, status, resource_type, resource_id, completed_at)
  VALUES (:org, :opid, 'sandbox', :app, 'product.create', 'completed', 'product', :pid, now()))
INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body, created_at)
VALUES (:org, gen_random_uuid(), 'sandbox', :app, 'operation.completed', '{"type":"operation.completed"}', now());
COMMIT;
