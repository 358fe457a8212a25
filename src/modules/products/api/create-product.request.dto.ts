import { ApiProperty } from '@nestjs/swagger';
import { MAX_MINOR } from '../../../shared/domain/money';
import { IsMinorAmountField, IsOneOfField, IsTextField } from '../../../shared/http/validation/constraints';
import { Amount, Optional, Required } from '../../../shared/http/validation/fields';
import { PRODUCT_KINDS, PRODUCT_UNITS, type ProductKind, type ProductUnit } from '../domain/product';

/** The product input of `POST /products` (seed 2.4). */
export class CreateProductRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 70, description: 'a stable business reference, unique per organization' })
  @Required()
  @IsTextField(1, 70)
  code: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @Required()
  @IsTextField(1, 200)
  name: string;

  @ApiProperty({ required: false, nullable: true, minLength: 1, maxLength: 2000 })
  @Optional(null)
  @IsTextField(1, 2000, { nullable: true })
  description: string | null;

  @ApiProperty({ required: false, enum: PRODUCT_KINDS, default: 'services' })
  @Optional('services')
  @IsOneOfField(PRODUCT_KINDS)
  kind: ProductKind;

  @ApiProperty({ required: false, enum: PRODUCT_UNITS, default: 'stk' })
  @Optional('stk')
  @IsOneOfField(PRODUCT_UNITS)
  unit: ProductUnit;

  @ApiProperty({ required: false, nullable: true, type: 'integer', minimum: 0, maximum: MAX_MINOR, description: 'øre; null: no price, 0: free' })
  @Optional(null)
  @Amount()
  @IsMinorAmountField({ nullable: true })
  unit_price_minor: number | null;
}
