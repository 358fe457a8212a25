import { IsMinorAmountField, IsOneOfField, IsTextField } from '../../../shared/http/validation/constraints';
import { Amount, Optional, Required } from '../../../shared/http/validation/fields';
import { PRODUCT_KINDS, PRODUCT_UNITS, type ProductKind, type ProductUnit } from '../domain/product';

/** The product input of `POST /products` (seed 2.4). */
export class CreateProductRequestDto {
  @Required()
  @IsTextField(1, 70)
  code: string;

  @Required()
  @IsTextField(1, 200)
  name: string;

  @Optional(null)
  @IsTextField(1, 2000, { nullable: true })
  description: string | null;

  @Optional('services')
  @IsOneOfField(PRODUCT_KINDS)
  kind: ProductKind;

  @Optional('stk')
  @IsOneOfField(PRODUCT_UNITS)
  unit: ProductUnit;

  @Optional(null)
  @Amount()
  @IsMinorAmountField({ nullable: true })
  unit_price_minor: number | null;
}
