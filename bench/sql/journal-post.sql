-- The SQL the service issues for one 2-line final posting (token and mandate look-ups, then one transaction).
SELECT t.environment FROM access_tokens t JOIN apps a ON a.id = t.app_id
  LEFT JOIN sandbox_generations sg ON sg.id = t.generation_id LEFT JOIN sandbox_projects p ON p.id = sg.project_id
  LEFT JOIN grants g ON g.organization_id = t.organization_id AND g.id = t.grant_id
 WHERE t.token_hash = md5(random()::text);
SELECT id FROM mandates WHERE organization_id = :org AND app_id = :app AND revoked_at IS NULL LIMIT 1;
BEGIN;
INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, grant_id, response)
VALUES (:org, 'sandbox', :app, gen_random_uuid()::text, 'journal.post', md5(random()::text), NULL, NULL)
ON CONFLICT (organization_id, environment, app_id, idempotency_key) DO NOTHING RETURNING idempotency_key AS k \gset
SELECT 'a' AS kind, a.id FROM accounts a
 WHERE a.organization_id = :org AND a.id = ANY(ARRAY[:a1, :a2]::uuid[]) AND a.active
   AND (NULL::uuid IS NULL OR EXISTS (SELECT 1 FROM grant_accounts ga WHERE ga.organization_id = a.organization_id AND ga.grant_id = NULL AND ga.account_id = a.id))
UNION ALL SELECT 't', t.id FROM tax_codes t WHERE t.organization_id = :org AND t.id = ANY('{}'::uuid[]);
SELECT closed_at FROM periods WHERE organization_id = :org AND period = '2026-11' FOR SHARE;
WITH receipt AS (INSERT INTO operation_receipts (organization_id, id, environment, app_id, kind, status, resource_type, resource_id, completed_at)
  VALUES (:org, gen_random_uuid(), 'sandbox', :app, 'journal.post', 'completed', 'journal_entry', gen_random_uuid(), now()))
INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body, created_at)
VALUES (:org, gen_random_uuid(), 'sandbox', :app, 'operation.completed', '{"type":"operation.completed"}', now());
WITH voucher AS (
  INSERT INTO voucher_counters (organization_id, year, last_number) VALUES (:org, 2026, 1)
  ON CONFLICT (organization_id, year) DO UPDATE SET last_number = voucher_counters.last_number + 1 RETURNING last_number),
entry AS (
  INSERT INTO journal_entries (organization_id, id, environment, voucher_year, voucher_number, posting_date, transaction_date,
    document_date, description, currency, app_id, operation_id, created_at)
  SELECT :org, gen_random_uuid(), 'sandbox', 2026, voucher.last_number, '2026-11-20', NULL, NULL, 'bench', 'DKK', :app, gen_random_uuid(), now()
    FROM voucher RETURNING id, voucher_number),
line AS (
  INSERT INTO journal_lines (organization_id, entry_id, line_no, account_id, debit_minor, credit_minor, tax_code_id, dimension_refs, line_text)
  SELECT :org, entry.id, l.line_no, l.account_id, l.debit_minor, l.credit_minor, l.tax_code_id, l.dimension_refs, l.line_text
    FROM entry, unnest(ARRAY[1, 2], ARRAY[:a1, :a2]::uuid[], ARRAY[99999999999999, 0]::bigint[], ARRAY[0, 99999999999999]::bigint[],
                       ARRAY[NULL, NULL]::uuid[], ARRAY['[]', '[]']::jsonb[], ARRAY[NULL, NULL]::text[])
      AS l(line_no, account_id, debit_minor, credit_minor, tax_code_id, dimension_refs, line_text))
SELECT voucher_number FROM entry;
UPDATE idempotency_records SET response = '{"id":"x"}'
 WHERE organization_id = :org AND environment = 'sandbox' AND app_id = :app AND idempotency_key = :k;
COMMIT;
