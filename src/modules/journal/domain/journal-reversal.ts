import { DomainError } from '../../../shared/domain/errors';
import type { JournalInput } from './journal-input';
import type { JournalEntryView } from './journal-entry-read';

/** CONTRACT §19: the body of `POST {base}/journal/entries/{id}/reversal`, normalized (description null: the default). */
export interface ReversalRequest {
  posting_date: string;
  description: string | null;
}

/** CONTRACT §19: how a reversal dated before the entry it reverses is answered (also in the OpenAPI document). */
export const REVERSAL_BEFORE_ENTRY = { code: 'invalid_input', status: 422 } as const;

/** CONTRACT §19: a reversal dated before the entry it reverses — 422 invalid_input at /posting_date. */
export class ReversalBeforeEntryError extends DomainError {
  override readonly status = REVERSAL_BEFORE_ENTRY.status;

  constructor() {
    const detail = "must not be before the reversed entry's posting_date";
    super(REVERSAL_BEFORE_ENTRY.code, `1 violation; first: /posting_date ${detail}`, [{ pointer: '/posting_date', code: 'invalid_input', detail }]);
  }
}

/** CONTRACT §19: the default description of a reversal, naming the voucher it reverses. */
export const reversalDescriptionOf = (e: Pick<JournalEntryView, 'voucher_year' | 'voucher_number'>): string =>
  `Tilbageførsel af bilag ${e.voucher_year}-${e.voucher_number}`;

/**
 * CONTRACT §19: the journal that reverses `entry` — its lines in their order, each line's debit and
 * credit swapped and everything else equal — dated and described by the request. The reversal's own
 * transaction and document dates are not the reversed entry's: it is a registration of its own.
 */
export function reversalOf(entry: JournalEntryView, request: ReversalRequest): JournalInput {
  return {
    posting_date: request.posting_date,
    transaction_date: null,
    document_date: null,
    description: request.description ?? reversalDescriptionOf(entry),
    currency: 'DKK',
    lines: entry.lines.map((l) => ({ ...l, debit_minor: l.credit_minor, credit_minor: l.debit_minor })),
  };
}
