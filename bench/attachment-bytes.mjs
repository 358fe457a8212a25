// What attachment bytes cost a primary (docs/scaling.md, issue 33): N PDFs of SIZE bytes of incompressible
// content (a real PDF's streams are already deflated) into a scratch database shaped by the service's own
// migrations, then the table's heap, TOAST and index sizes and the size of a pg_dump of it.
//   node bench/attachment-bytes.mjs [count=500] [bytes=204800]
// Needs a PostgreSQL server at PGHOST (default 127.0.0.1:5432, user postgres, trust auth).
import { execFileSync } from 'node:child_process';
import { randomBytes, createHash, randomUUID } from 'node:crypto';
import pg from 'pg';

const count = Number(process.argv[2] ?? 500);
const size = Number(process.argv[3] ?? 204_800);
const db = `attachment_bytes_${process.pid}`;
const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
await admin.connect();
await admin.query(`CREATE DATABASE ${db}`);
const client = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: db });
try {
  await client.connect();
  // the columns and keys of migration 1766430000000 (attachment_contents), without the foreign key
  await client.query(`CREATE TABLE attachment_contents (
    organization_id uuid NOT NULL, sha256 text NOT NULL, size integer NOT NULL, content bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (organization_id, sha256))`);
  const org = randomUUID();
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
    await client.query(`INSERT INTO attachment_contents (organization_id, sha256, size, content) VALUES ($1, $2, $3, $4)`, [
      org,
      createHash('sha256').update(bytes).digest('hex'),
      bytes.length,
      bytes,
    ]);
  }
  const ms = Date.now() - started;
  await client.query('VACUUM ANALYZE attachment_contents');
  const [r] = (
    await client.query(`SELECT pg_relation_size('attachment_contents') AS heap,
      pg_total_relation_size(reltoastrelid) AS toast, pg_indexes_size('attachment_contents') AS indexes,
      (SELECT count(*) FROM attachment_contents) AS rows
    FROM pg_class WHERE relname = 'attachment_contents'`)
  ).rows;
  const dump = execFileSync('pg_dump', ['-h', '127.0.0.1', '-U', 'postgres', '-Fc', '-t', 'attachment_contents', db], { maxBuffer: 2 ** 31 });
  const mb = (b) => (Number(b) / 1048576).toFixed(1);
  const per = (b) => (Number(b) / count / 1024).toFixed(1);
  console.log(
    JSON.stringify({
      count,
      size,
      rows: Number(r.rows),
      insertMs: ms,
      heapMB: mb(r.heap),
      toastMB: mb(r.toast),
      indexesMB: mb(r.indexes),
      dumpMB: mb(dump.length),
      perFileKB: { heap: per(r.heap), toast: per(r.toast), indexes: per(r.indexes), dump: per(dump.length) },
      payloadMB: mb(count * size),
    }),
  );
} finally {
  await client.end();
  await admin.query(`DROP DATABASE ${db}`);
  await admin.end();
}
