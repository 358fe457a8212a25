/**
 * The README's partner flow with the generated client: prepare → post → look up the receipt → attach the
 * receipt PDF (from a Buffer, a Blob and a file path) → read the entry back and download the file → create a
 * product → read the events feed. Type-checked with `strict` and no cast in CI, and run there against a
 * started service; with the variables `.data/sandbox.env` exports (BASE, TOKEN, RENT_ACCOUNT, BANK_ACCOUNT):
 *   source .data/sandbox.env && npm exec -- node --experimental-strip-types clients/typescript/examples/partner-flow.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPartnerClient, type Problem, type Schemas } from '../src/index.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

function fail(step: string, problem: Problem | undefined, status: number): never {
  const errors = problem?.errors?.map((e) => `${e.pointer} ${e.code}`).join(', ') ?? '';
  throw new Error(`${step}: ${status} ${problem?.code ?? ''} ${problem?.detail ?? ''} ${errors}`);
}

async function main(): Promise<void> {
  const client = createPartnerClient(required('BASE'), required('TOKEN'));

  // the README's journal: optional members (currency, amounts, tax code…) may be left out
  const journal: Schemas['JournalRequestDto'] = {
    posting_date: '2026-11-20',
    description: 'Husleje november',
    lines: [
      { account_id: required('RENT_ACCOUNT'), debit_minor: 700000, line_text: 'Husleje' },
      { account_id: required('BANK_ACCOUNT'), credit_minor: 700000, tax_code_id: null },
    ],
  };

  const prepared = await client.POST('/journal/prepare', { body: journal });
  if (!prepared.data) fail('prepare', prepared.error, prepared.response.status);
  console.log('prepare:', prepared.data.valid, prepared.data.checked.join(', '));

  const posted = await client.POST('/journal', { body: journal, params: { header: { 'Idempotency-Key': randomUUID() } } });
  if (!posted.data) fail('post', posted.error, posted.response.status);
  const entry = posted.data;
  console.log(`voucher ${entry.voucher_number}, ${entry.replayed ? 'replayed' : `posted in ${entry.environment}`}`);

  const receipt = await client.GET('/operations/{operation_id}', { params: { path: { operation_id: entry.operation_id } } });
  if (!receipt.data) fail('receipt', receipt.error, receipt.response.status);
  console.log(`receipt: ${receipt.data.kind} ${receipt.data.status} at ${receipt.data.completed_at}`);

  // voucher documentation (CONTRACT §17): the file itself, exactly once per Idempotency-Key
  const pdf = Buffer.from('%PDF-1.4\n% Husleje november\n%%EOF\n', 'latin1');
  const fromBuffer = await client.addJournalEntryAttachment(entry.id, pdf, {
    idempotencyKey: randomUUID(),
    contentType: 'application/pdf',
    filename: 'husleje-november.pdf',
  });
  if (!fromBuffer.data) fail('attach (Buffer)', fromBuffer.error, fromBuffer.response.status);
  const fromBlob = await client.addJournalEntryAttachment(entry.id, new Blob([pdf], { type: 'application/pdf' }), { idempotencyKey: randomUUID() });
  if (!fromBlob.data) fail('attach (Blob)', fromBlob.error, fromBlob.response.status);
  const path = join(mkdtempSync(join(tmpdir(), 'bilag-')), 'kvittering.pdf');
  writeFileSync(path, pdf);
  const fromPath = await client.addJournalEntryAttachment(entry.id, path, { idempotencyKey: randomUUID() });
  if (!fromPath.data) fail('attach (path)', fromPath.error, fromPath.response.status);
  console.log(`attached ${fromBuffer.data.filename}, ${fromBlob.data.filename}, ${fromPath.data.filename} (${fromPath.data.sha256})`);

  const read = await client.getJournalEntry(entry.id);
  if (!read.data) fail('entry', read.error, read.response.status);
  console.log(`entry ${read.data.voucher_year}-${read.data.voucher_number}: ${read.data.lines.length} lines, ${read.data.attachments.length} attachments`);
  const file = await client.getJournalEntryAttachment(entry.id, fromBuffer.data.id);
  if (!file.data) fail('download', file.error, file.response.status);
  if (Buffer.compare(Buffer.from(file.data.bytes), pdf) !== 0) throw new Error('download: not the bytes that were attached');
  console.log(`downloaded ${file.data.filename}: ${file.data.bytes.length} bytes, ETag ${file.data.etag}`);
  const list = await client.listJournalEntries({ limit: 100 });
  if (!list.data) fail('entries', list.error, list.response.status);
  console.log(`entries: ${list.data.data.length} on the first page`);

  // a wrong posting is corrected by a new entry that reverses it (CONTRACT §19), never changed
  const reversal = await client.POST('/journal/entries/{entry_id}/reversal', {
    params: { path: { entry_id: entry.id }, header: { 'Idempotency-Key': randomUUID() } },
    body: { posting_date: journal.posting_date },
  });
  if (!reversal.data) fail('reversal', reversal.error, reversal.response.status);
  console.log(`reversed ${read.data.voucher_year}-${read.data.voucher_number} by ${reversal.data.voucher_year}-${reversal.data.voucher_number}`);
  // a day's sales in one call: all or nothing, voucher numbers consecutive in input order
  const batch = await client.POST('/journal/batch', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: { journals: [journal, journal, journal] },
  });
  if (!batch.data) fail('batch', batch.error, batch.response.status);
  console.log(`batch: vouchers ${batch.data.entries.map((e) => `${e.voucher_year}-${e.voucher_number}`).join(', ')}`);

  const product = await client.POST('/products', {
    body: { code: `P-${Date.now()}`, name: 'Konsulenttime', unit: 'time', unit_price_minor: 95000 },
    params: { header: { 'Idempotency-Key': randomUUID() } },
  });
  if (!product.data) fail('product', product.error, product.response.status);
  console.log(`product ${product.data.id} (operation ${product.data.operation_id})`);

  // the events feed: every event of the app, oldest first; keep the last next_cursor and read on from it later
  let after: string | undefined;
  for (;;) {
    const page = await client.GET('/events', { params: { query: { limit: 100, ...(after ? { after } : {}) } } });
    if (!page.data) fail('events', page.error, page.response.status);
    for (const event of page.data.data) {
      // the type says what data holds; a type this code does not know is skipped, never an error (CONTRACT §9)
      if (event.type === 'operation.completed') console.log(`event ${event.id}: ${event.data.kind} ${event.data.operation_id}`);
      else if (event.type === 'grant.expiring')
        console.log(`event ${event.id}: grant ${event.data.grant_id} expires ${event.data.expires_at}: ask the owner to consent again`);
      else console.log(`event ${event.id}: ${event.type}`);
    }
    after = page.data.next_cursor;
    if (!page.data.has_more) break;
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
