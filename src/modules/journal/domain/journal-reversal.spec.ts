import type { JournalEntryView } from './journal-entry-read';
import { reversalOf } from './journal-reversal';

const entry = (lines: JournalEntryView['lines']): JournalEntryView => ({
  id: 'e1',
  voucher_year: 2026,
  voucher_number: 7,
  posting_date: '2026-03-01',
  transaction_date: '2026-02-28',
  document_date: null,
  description: 'Forkert',
  currency: 'DKK',
  lines,
  attachments: [],
  operation_id: 'o1',
  posted_at: '2026-03-01T10:00:00.000Z',
  reverses: null,
  reversed_by: null,
  registered_by: { app_id: 'a1', app_name: 'App', grant_id: null },
});

describe('reversalOf (CONTRACT §19)', () => {
  const lines = [
    { account_id: 'a', debit_minor: 700, credit_minor: 0, tax_code_id: 't', dimension_refs: [{ dept: 1 }], line_text: 'varer' },
    { account_id: 'b', debit_minor: 0, credit_minor: 700, tax_code_id: null, dimension_refs: [], line_text: null },
  ];

  it('keeps the lines in their order with debit and credit swapped and everything else equal', () => {
    expect(reversalOf(entry(lines), { posting_date: '2026-03-02', description: null }).lines).toEqual([
      { account_id: 'a', debit_minor: 0, credit_minor: 700, tax_code_id: 't', dimension_refs: [{ dept: 1 }], line_text: 'varer' },
      { account_id: 'b', debit_minor: 700, credit_minor: 0, tax_code_id: null, dimension_refs: [], line_text: null },
    ]);
  });

  it('is dated and described by the request, by default "Tilbageførsel af bilag <year>-<number>"', () => {
    expect(reversalOf(entry(lines), { posting_date: '2026-03-02', description: null })).toMatchObject({
      posting_date: '2026-03-02',
      description: 'Tilbageførsel af bilag 2026-7',
      transaction_date: null,
      document_date: null,
      currency: 'DKK',
    });
    expect(reversalOf(entry(lines), { posting_date: '2026-03-02', description: 'Rettelse' }).description).toBe('Rettelse');
  });
});
