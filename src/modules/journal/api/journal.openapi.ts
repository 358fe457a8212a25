import { commitOrderPage, commitOrderQuery, environment, object, ref, type Schema, uuid } from '../../../shared/http/openapi/common';

// The journal's result schemas in the partner document (CONTRACT §7, §17): exactly the members listed.

const date: Schema = { type: 'string', format: 'date' };
const MINOR: Schema = { type: 'integer', minimum: 0, maximum: 99999999999999 };

/**
 * An exactly-once write's 201 bodies (CONTRACT §6, §7): the first execution's (with `environment`), the
 * replay's (without), and their closed union — CONTRACT §13: the body is closed itself
 * (additionalProperties: false), and oneOf says which of the two it is.
 */
function firstAndReplay(names: { first: string; replayed: string; result: string }, members: Record<string, Schema>, what: string): Record<string, Schema> {
  return {
    [names.first]: object({ ...members, replayed: { const: false }, environment }, undefined, { description: `First execution of ${what}.` }),
    [names.replayed]: object({ ...members, replayed: { const: true } }, undefined, {
      description: "A replay (same Idempotency-Key, same input): the first execution's ids, without `environment`.",
    }),
    [names.result]: object({ ...members, replayed: { type: 'boolean' }, environment }, [...Object.keys(members), 'replayed'], {
      oneOf: [ref(names.first), ref(names.replayed)],
      description: `The answer of ${what}: its first execution or a replay.`,
    }),
  };
}

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

export const POST_SCHEMAS: Record<string, Schema> = firstAndReplay(
  { first: 'JournalPosted', replayed: 'JournalReplayed', result: 'JournalPostResult' },
  {
    id: uuid,
    posted: { const: true },
    voucher_number: { type: 'integer', minimum: 1, description: 'gapless per organization and calendar year of posting_date' },
    operation_id: uuid,
  },
  'POST /journal',
);

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
      posted_at: { type: 'string', format: 'date-time', description: 'the registration time the service assigned' },
      reverses: { type: ['string', 'null'], format: 'uuid', description: 'the entry this one reverses (CONTRACT §19)' },
      reversed_by: { type: ['string', 'null'], format: 'uuid', description: 'the entry that reverses this one' },
      registered_by: object(
        {
          app_id: uuid,
          app_name: { type: ['string', 'null'] },
          grant_id: { type: ['string', 'null'], format: 'uuid', description: "the owner's grant; null in the sandbox" },
        },
        undefined,
        { description: 'The app and the grant the entry was registered under, as they were then.' },
      ),
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

const NUMBERED = {
  id: uuid,
  voucher_year: { type: 'integer', minimum: 1 },
  voucher_number: { type: 'integer', minimum: 1, description: 'gapless per organization and calendar year of posting_date' },
} satisfies Record<string, Schema>;

/** CONTRACT §19: the reversal's answer. */
export const REVERSAL_SCHEMAS: Record<string, Schema> = firstAndReplay(
  { first: 'ReversalPosted', replayed: 'ReversalReplayed', result: 'ReversalResult' },
  { ...NUMBERED, operation_id: uuid, reverses: { ...uuid, description: 'the reversed entry' } },
  'POST /journal/entries/{entryId}/reversal',
);

/** CONTRACT §19: the batch's answer. */
export const BATCH_SCHEMAS: Record<string, Schema> = firstAndReplay(
  { first: 'JournalBatchPosted', replayed: 'JournalBatchReplayed', result: 'JournalBatchResult' },
  {
    entries: { type: 'array', minItems: 1, maxItems: 100, items: object(NUMBERED), description: 'in input order, voucher numbers consecutive per year' },
    operation_id: uuid,
  },
  'POST /journal/batch',
);
