'use strict';
/**
 * The app-layer baseline of `npm run bench`: a minimal node:http + pg server that does the service's
 * work by hand — JSON parse, the same validation rules, the same SQL against the same database — for
 * prepare and product create. Whatever the service costs beyond this is framework and design overhead.
 */
const http = require('node:http');
const { createHash, randomUUID } = require('node:crypto');
const { Pool, types } = require('pg');

types.setTypeParser(20, (v) => v);
types.setTypeParser(1082, (v) => v);

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10, options: '-c lock_timeout=10000' });
const MAX = 99999999999999;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UNITS = new Set(['stk', 'stk.', 'time', 'timer', 'kg', 'liter', 'km']);

function isDate(v) {
  if (typeof v !== 'string') return false;
  const m = DATE.exec(v);
  if (!m) return false;
  const y = +m[1], mo = +m[2], d = +m[3];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const dim = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return d <= dim;
}
const cp = (s) => [...s].length;
const isText = (v, min, max) => typeof v === 'string' && cp(v) >= min && cp(v) <= max;
const isAmount = (v) => Number.isInteger(v) && v >= 0 && v <= MAX;
const opt = (v, d) => (v === null || v === undefined ? d : v);

function send(res, status, body) {
  const s = JSON.stringify(body);
  res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'cache-control': 'no-store', 'x-request-id': randomUUID() });
  res.end(s);
}

async function caller(req) {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization || '');
  if (!m) return null;
  const hash = createHash('sha256').update(m[1]).digest('hex');
  const { rows } = await pool.query(
    `SELECT t.environment, t.organization_id, t.app_id, t.grant_id, t.generation_id, t.app_revision_id,
            p.current_generation_id, g.scopes, g.revoked_at, g.superseded_at, g.expires_at, a.approved_revision_id
       FROM access_tokens t JOIN apps a ON a.id = t.app_id
       LEFT JOIN sandbox_generations sg ON sg.id = t.generation_id
       LEFT JOIN sandbox_projects p ON p.id = sg.project_id
       LEFT JOIN grants g ON g.organization_id = t.organization_id AND g.id = t.grant_id
      WHERE t.token_hash = $1`, [hash]);
  const r = rows[0];
  if (!r || r.generation_id !== r.current_generation_id) return null;
  return r;
}

function validateJournal(b) {
  const errors = [];
  const known = new Set(['posting_date', 'transaction_date', 'document_date', 'description', 'currency', 'lines']);
  for (const k of Object.keys(b)) if (!known.has(k)) errors.push(`/${k}`);
  if (!isDate(b.posting_date)) errors.push('/posting_date');
  for (const f of ['transaction_date', 'document_date']) if (b[f] != null && !isDate(b[f])) errors.push(`/${f}`);
  if (b.description != null && !isText(b.description, 1, 1000)) errors.push('/description');
  if (opt(b.currency, 'DKK') !== 'DKK') errors.push('/currency');
  if (!Array.isArray(b.lines) || b.lines.length < 2 || b.lines.length > 500) { errors.push('/lines'); return errors; }
  const lineKnown = new Set(['account_id', 'debit_minor', 'credit_minor', 'tax_code_id', 'dimension_refs', 'line_text']);
  b.lines.forEach((l, i) => {
    if (l === null || typeof l !== 'object' || Array.isArray(l)) return errors.push(`/lines/${i}`);
    for (const k of Object.keys(l)) if (!lineKnown.has(k)) errors.push(`/lines/${i}/${k}`);
    if (typeof l.account_id !== 'string' || !UUID.test(l.account_id)) errors.push(`/lines/${i}/account_id`);
    l.debit_minor = opt(l.debit_minor, 0);
    l.credit_minor = opt(l.credit_minor, 0);
    const okD = isAmount(l.debit_minor), okC = isAmount(l.credit_minor);
    if (!okD) errors.push(`/lines/${i}/debit_minor`);
    if (!okC) errors.push(`/lines/${i}/credit_minor`);
    if (okD && okC && (l.debit_minor > 0) === (l.credit_minor > 0)) errors.push(`/lines/${i}`);
    if (l.tax_code_id != null && !(typeof l.tax_code_id === 'string' && UUID.test(l.tax_code_id))) errors.push(`/lines/${i}/tax_code_id`);
    const dims = opt(l.dimension_refs, []);
    if (!Array.isArray(dims) || dims.length > 20) errors.push(`/lines/${i}/dimension_refs`);
    if (l.line_text != null && !isText(l.line_text, 1, 500)) errors.push(`/lines/${i}/line_text`);
  });
  return errors;
}

async function prepare(req, res, body) {
  const c = await caller(req);
  if (!c) return send(res, 401, { code: 'invalid_token' });
  const errors = validateJournal(body);
  if (errors.length) return send(res, 400, { code: 'invalid_input', errors });
  let d = 0n, cr = 0n;
  for (const l of body.lines) { d += BigInt(l.debit_minor); cr += BigInt(l.credit_minor); }
  if (d !== cr) return send(res, 422, { code: 'journal_unbalanced' });
  const accountIds = [...new Set(body.lines.map((l) => l.account_id.toLowerCase()))];
  const taxIds = [...new Set(body.lines.filter((l) => l.tax_code_id).map((l) => l.tax_code_id.toLowerCase()))];
  const { rows } = await pool.query(
    `SELECT 'a' AS kind, a.id FROM accounts a
      WHERE a.organization_id = $1 AND a.id = ANY($2::uuid[]) AND a.active
        AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM grant_accounts ga WHERE ga.organization_id = a.organization_id AND ga.grant_id = $3 AND ga.account_id = a.id))
     UNION ALL SELECT 't', t.id FROM tax_codes t WHERE t.organization_id = $1 AND t.id = ANY($4::uuid[])`,
    [c.organization_id, accountIds, c.grant_id, taxIds]);
  const ok = new Set(rows.map((r) => r.id));
  if (body.lines.some((l) => !ok.has(l.account_id.toLowerCase()))) return send(res, 422, { code: 'reference_not_allowed' });
  send(res, 200, { valid: true, posted: false, checked: ['input', 'grant', 'references'], not_checked: ['commit_time_period_locks', 'accounting_transaction'] });
}

function canonical(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
}

async function createProduct(req, res, body) {
  const c = await caller(req);
  if (!c) return send(res, 401, { code: 'invalid_token' });
  const key = req.headers['idempotency-key'];
  if (!key) return send(res, 400, { code: 'idempotency_key_required' });
  const known = new Set(['code', 'name', 'description', 'kind', 'unit', 'unit_price_minor']);
  const errors = Object.keys(body).filter((k) => !known.has(k)).map((k) => `/${k}`);
  const p = {
    code: body.code, name: body.name, description: opt(body.description, null),
    kind: opt(body.kind, 'services'), unit: opt(body.unit, 'stk'), unit_price_minor: opt(body.unit_price_minor, null),
  };
  if (!isText(p.code, 1, 70)) errors.push('/code');
  if (!isText(p.name, 1, 200)) errors.push('/name');
  if (p.description !== null && !isText(p.description, 1, 2000)) errors.push('/description');
  if (p.kind !== 'goods' && p.kind !== 'services') errors.push('/kind');
  if (!UNITS.has(p.unit)) errors.push('/unit');
  if (p.unit_price_minor !== null && !isAmount(p.unit_price_minor)) errors.push('/unit_price_minor');
  if (errors.length) return send(res, 400, { code: 'invalid_input', errors });
  const fingerprint = createHash('sha256').update(canonical({ input: p, operation: 'product.create' })).digest('hex');
  const id = randomUUID(), operationId = randomUUID(), now = new Date();
  const response = { id, created: true, operation_id: operationId, replayed: false, environment: c.environment };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claimed = await client.query(
      `INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, grant_id, response)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (organization_id, environment, app_id, idempotency_key) DO NOTHING RETURNING 1`,
      [c.organization_id, c.environment, c.app_id, key, 'product.create', fingerprint, c.grant_id, JSON.stringify(response)]);
    if (claimed.rows.length === 0) {
      const { rows } = await client.query(
        `SELECT operation, fingerprint, grant_id, response FROM idempotency_records WHERE organization_id=$1 AND environment=$2 AND app_id=$3 AND idempotency_key=$4`,
        [c.organization_id, c.environment, c.app_id, key]);
      await client.query('COMMIT');
      if (rows[0].fingerprint !== fingerprint) return send(res, 409, { code: 'idempotency_key_reused' });
      const { environment, ...rest } = rows[0].response;
      return send(res, 201, { ...rest, replayed: true });
    }
    try {
      await client.query(
        `INSERT INTO products (organization_id, id, environment, code, name, description, kind, unit, unit_price_minor, app_id, operation_id)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
        [c.organization_id, id, c.environment, p.code, p.name, p.description, p.kind, p.unit, p.unit_price_minor, c.app_id, operationId]);
    } catch (e) {
      await client.query('ROLLBACK');
      if (e.code === '23505') return send(res, 409, { code: 'resource_conflict' });
      throw e;
    }
    const receipt = { operation_id: operationId, kind: 'product.create', status: 'completed', resource: { type: 'product', id }, completed_at: now.toISOString(), environment: c.environment };
    await client.query(
      `WITH receipt AS (INSERT INTO operation_receipts (organization_id, id, environment, app_id, kind, status, resource_type, resource_id, completed_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9))
       INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body, created_at) VALUES ($1,$10,$3,$4,'operation.completed',$11,$9)`,
      [c.organization_id, operationId, c.environment, c.app_id, 'product.create', 'completed', 'product', id, now, randomUUID(),
        JSON.stringify({ type: 'operation.completed', timestamp: receipt.completed_at, data: receipt })]);
    await client.query('COMMIT');
    send(res, 201, response);
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  let size = 0;
  req.on('data', (c) => { size += c.length; if (size <= 262144) chunks.push(c); });
  req.on('end', () => {
    if (size > 262144) return send(res, 413, { code: 'payload_too_large' });
    let body;
    try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { return send(res, 400, { code: 'invalid_input' }); }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return send(res, 400, { code: 'invalid_input' });
    const route = req.url.replace(/^\/api\/partner\/(sandbox\/)?v1/, '');
    const handler = req.method === 'POST' && route === '/journal/prepare' ? prepare : req.method === 'POST' && route === '/products' ? createProduct : null;
    if (!handler) return send(res, 404, { code: 'not_found' });
    handler(req, res, body).catch((e) => { process.stderr.write(`${e.stack}\n`); send(res, 500, { code: 'internal_error' }); });
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('baseline ready\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
