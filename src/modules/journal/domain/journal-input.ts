/** The normalized journal input the application layer works on (seed 2.1, 2.2, CONTRACT §5). */
export interface JournalLineInput {
  account_id: string;
  debit_minor: number;
  credit_minor: number;
  tax_code_id: string | null;
  dimension_refs: unknown[];
  line_text: string | null;
}

export interface JournalInput {
  posting_date: string;
  transaction_date: string | null;
  document_date: string | null;
  description: string | null;
  currency: 'DKK';
  lines: JournalLineInput[];
}
