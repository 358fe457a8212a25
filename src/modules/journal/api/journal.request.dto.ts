import { ApiProperty } from '@nestjs/swagger';
import { MAX_MINOR } from '../../../shared/domain/money';
import {
  IsArrayField,
  IsCalendarDateField,
  IsJsonArrayField,
  IsMinorAmountField,
  IsOneOfField,
  IsTextField,
  IsUuidField,
} from '../../../shared/http/validation/constraints';
import { Amount, type CrossFieldRule, NestedItems, Optional, Required } from '../../../shared/http/validation/fields';

/** A journal line (seed 2.2). */
export class JournalLineRequestDto implements CrossFieldRule {
  @ApiProperty({ format: 'uuid' })
  @Required()
  @IsUuidField()
  account_id: string;

  @ApiProperty({ required: false, type: 'integer', minimum: 0, maximum: MAX_MINOR, default: 0, description: 'øre' })
  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  debit_minor: number;

  @ApiProperty({ required: false, type: 'integer', minimum: 0, maximum: MAX_MINOR, default: 0, description: 'øre' })
  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  credit_minor: number;

  @ApiProperty({ required: false, nullable: true, format: 'uuid' })
  @Optional(null)
  @IsUuidField({ nullable: true })
  tax_code_id: string | null;

  @ApiProperty({ required: false, type: 'array', maxItems: 20, default: [], items: {}, description: 'any JSON items, nested at most 256 levels' })
  @Optional([])
  @IsJsonArrayField(20, 256)
  dimension_refs: unknown[];

  @ApiProperty({ required: false, nullable: true, minLength: 1, maxLength: 500 })
  @Optional(null)
  @IsTextField(1, 500, { nullable: true })
  line_text: string | null;

  /** seed 2.2 rule 1, judged only when both amounts are valid (CONTRACT §5). */
  crossFieldViolations(failed: { has(field: string): boolean }): Array<{ detail: string }> {
    if (failed.has('debit_minor') || failed.has('credit_minor')) return [];
    return this.debit_minor > 0 !== this.credit_minor > 0
      ? []
      : [{ detail: 'exactly one of debit_minor and credit_minor must be greater than 0' }];
  }
}

/** The journal input of `POST /journal/prepare` and `POST /journal` (seed 2.1). */
export class JournalRequestDto {
  @ApiProperty({ format: 'date', example: '2026-11-20' })
  @Required()
  @IsCalendarDateField()
  posting_date: string;

  @ApiProperty({ required: false, nullable: true, format: 'date' })
  @Optional(null)
  @IsCalendarDateField({ nullable: true })
  transaction_date: string | null;

  @ApiProperty({ required: false, nullable: true, format: 'date' })
  @Optional(null)
  @IsCalendarDateField({ nullable: true })
  document_date: string | null;

  @ApiProperty({ required: false, nullable: true, minLength: 1, maxLength: 1000 })
  @Optional(null)
  @IsTextField(1, 1000, { nullable: true })
  description: string | null;

  @ApiProperty({ required: false, enum: ['DKK'], default: 'DKK' })
  @Optional('DKK')
  @IsOneOfField(['DKK'])
  currency: 'DKK';

  @ApiProperty({ type: [JournalLineRequestDto], minItems: 2, maxItems: 500 })
  @Required()
  @NestedItems(() => JournalLineRequestDto)
  @IsArrayField(2, 500)
  lines: JournalLineRequestDto[];
}
