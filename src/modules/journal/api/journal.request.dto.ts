import {
  IsArrayField,
  IsCalendarDateField,
  IsJsonArrayField,
  IsMinorAmountField,
  IsOneOfField,
  IsTextField,
  IsUuidField,
} from '../../../shared/http/validation/constraints';
import { Amount, type CrossFieldRule, NestedItems, NO_CROSS_FIELD_VIOLATIONS, Optional, Required } from '../../../shared/http/validation/fields';

/** A journal line (seed 2.2). */
export class JournalLineRequestDto implements CrossFieldRule {
  @Required()
  @IsUuidField()
  account_id: string;

  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  debit_minor: number;

  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  credit_minor: number;

  @Optional(null)
  @IsUuidField({ nullable: true })
  tax_code_id: string | null;

  @Optional([])
  @IsJsonArrayField(20, 256)
  dimension_refs: unknown[];

  @Optional(null)
  @IsTextField(1, 500, { nullable: true })
  line_text: string | null;

  /** seed 2.2 rule 1, judged only when both amounts are valid (CONTRACT §5). */
  crossFieldViolations(failed: { has(field: string): boolean }): ReadonlyArray<{ detail: string }> {
    if (failed.has('debit_minor') || failed.has('credit_minor')) return NO_CROSS_FIELD_VIOLATIONS;
    return this.debit_minor > 0 !== this.credit_minor > 0
      ? NO_CROSS_FIELD_VIOLATIONS
      : [{ detail: 'exactly one of debit_minor and credit_minor must be greater than 0' }];
  }
}

/** The journal input of `POST /journal/prepare` and `POST /journal` (seed 2.1). */
export class JournalRequestDto {
  @Required()
  @IsCalendarDateField()
  posting_date: string;

  @Optional(null)
  @IsCalendarDateField({ nullable: true })
  transaction_date: string | null;

  @Optional(null)
  @IsCalendarDateField({ nullable: true })
  document_date: string | null;

  @Optional(null)
  @IsTextField(1, 1000, { nullable: true })
  description: string | null;

  @Optional('DKK')
  @IsOneOfField(['DKK'])
  currency: 'DKK';

  @Required()
  @NestedItems(() => JournalLineRequestDto)
  @IsArrayField(2, 500)
  lines: JournalLineRequestDto[];
}

/** CONTRACT §19: at most this many journals in one batch. */
export const MAX_BATCH_JOURNALS = 100;

/** CONTRACT §19: the body of `POST {base}/journal/batch`, 1–100 journals, each exactly `POST /journal`'s body. */
export class JournalBatchRequestDto {
  @Required()
  @NestedItems(() => JournalRequestDto)
  @IsArrayField(1, MAX_BATCH_JOURNALS)
  journals: JournalRequestDto[];
}

/** CONTRACT §19: the body of `POST {base}/journal/entries/{id}/reversal`. */
export class ReversalRequestDto {
  @Required()
  @IsCalendarDateField()
  posting_date: string;

  @Optional(null)
  @IsTextField(1, 1000, { nullable: true })
  description: string | null;
}
