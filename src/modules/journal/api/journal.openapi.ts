import { commitOrderPage, commitOrderQuery, environment, object, ref, type Schema, uuid } from '../../../shared/http/openapi/common';

// The journal's result schemas in the partner document (CONTRACT §7, §17): exactly the members listed.

const date: Schema = { type: 'string', format: 'date' };
const MINOR: Schema = { type: 'integer', minimum: 0, maximum: 99999999999999 };

export const PREPARE_SCHEMAS: Record<string, Schema> = {
  PrepareResult: object(
    {
      valid: { const: true },
      posted: { const: false },
      checked: { type: 'array', items: { type: 'string', enum: ['input', 'grant', 'references'] }, examples: [['input', 'grant', 'references']] },
      not_checked: {
        type: 'array',
        items: { type: 'string', enum: ['commit_time_period_locks', 'accounting_transaction'] },
        examples: [['commit_time_period_locks', 'accounting_transaction']],
      },
    },
    undefined,
    { description: 'The journal passed every check a prepare can make; nothing was written.' },
  ),
};

export const POST_SCHEMAS: Record<string, Schema> = {
  JournalPosted: object(
    {
      id: uuid,
      posted: { const: true },
      voucher_number: { type: 'integer', minimum: 1, description: 'gapless per organization and calendar year of posting_date' },
      operation_id: uuid,
      replayed: { const: false },
      environment,
    },
    undefined,
    { description: 'First execution of POST /journal.' },
  ),
  JournalReplayed: object(
    {
      id: uuid,
      posted: { const: true },
      voucher_number: { type: 'integer', minimum: 1 },
      operation_id: uuid,
      replayed: { const: true },
    },
    undefined,
    { description: 'A replay (same Idempotency-Key, same input): the first execution\'s ids, without `environment`.' },
  ),
  // CONTRACT §13: the 201 body is closed itself (additionalProperties: false), and oneOf says which of
  // the two it is: a first execution carries `environment`, a replay does not
  JournalPostResult: object(
    {
      id: uuid,
      posted: { const: true },
      voucher_number: { type: 'integer', minimum: 1 },
      operation_id: uuid,
      replayed: { type: 'boolean' },
      environment,
    },
    ['id', 'posted', 'voucher_number', 'operation_id', 'replayed'],
    { oneOf: [ref('JournalPosted'), ref('JournalReplayed')], description: 'The answer of POST /journal: its first execution or a replay.' },
  ),
};

export const ACCOUNT_LIST_SCHEMAS: Record<string, Schema> = {
  AccountList: object(
    {
      data: {
        type: 'array',
        items: object({ id: uuid, number: { type: 'string', minLength: 1, maxLength: 20 }, name: { type: 'string' } }),
      },
    },
    undefined,
    { description: 'The active accounts the token may post to (sandbox: every active account of the project), by number.' },
  ),
};

export const TAX_CODE_LIST_SCHEMAS: Record<string, Schema> = {
  TaxCodeList: object(
    {
      data: {
        type: 'array',
        items: object({ id: uuid, code: { type: 'string' }, rate_basis_points: { type: 'integer', minimum: 0 } }),
      },
    },
    undefined,
    { description: "The organization's tax codes, by code." },
  ),
};

export const JOURNAL_ENTRY_SCHEMAS: Record<string, Schema> = {
  JournalEntry: object(
    {
      id: uuid,
      voucher_year: { type: 'integer', minimum: 1 },
      voucher_number: { type: 'integer', minimum: 1 },
      posting_date: date,
      transaction_date: { type: ['string', 'null'], format: 'date' },
      document_date: { type: ['string', 'null'], format: 'date' },
      description: { type: ['string', 'null'] },
      currency: { type: 'string' },
      lines: {
        type: 'array',
        items: object({
          account_id: uuid,
          debit_minor: MINOR,
          credit_minor: MINOR,
          tax_code_id: { type: ['string', 'null'], format: 'uuid' },
          dimension_refs: { type: 'array' },
          line_text: { type: ['string', 'null'] },
        }),
      },
      // the attachments module declares Attachment
      attachments: { type: 'array', items: ref('Attachment'), maxItems: 20 },
      operation_id: uuid,
      posted_at: { type: 'string', format: 'date-time' },
    },
    undefined,
    { description: 'A journal entry as posted: the normalized input, lines in posted order, its attachments (CONTRACT §17).' },
  ),
};

export const JOURNAL_ENTRIES_PAGE_SCHEMAS: Record<string, Schema> = {
  JournalEntriesPage: commitOrderPage(
    ref('JournalEntry'),
    'more entries can be read now',
    "A page of the app's journal entries, in the order they committed (CONTRACT §17).",
  ),
};

/** `GET /journal/entries` query parameters (CONTRACT §17). */
export const JOURNAL_ENTRIES_QUERY = [
  ...commitOrderQuery('A `next_cursor` of an earlier page; without it the list starts at the first entry.', 'Entries per page.'),
  { name: 'posting_date_from', in: 'query', required: false, description: 'Only entries posted on or after this date.', schema: date },
  { name: 'posting_date_to', in: 'query', required: false, description: 'Only entries posted on or before this date.', schema: date },
  {
    name: 'without_attachments',
    in: 'query',
    required: false,
    description: '`true`: only entries that have no attachment yet.',
    schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
  },
];
