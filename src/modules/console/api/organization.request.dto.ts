import { ApiProperty } from '@nestjs/swagger';
import { IsEmailField, IsIntegerField, IsTextField } from '../../../shared/http/validation/constraints';
import { Optional, Required } from '../../../shared/http/validation/fields';

export class CreateOrganizationRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @Required()
  @IsTextField(1, 200)
  name: string;
}

/** CONTRACT §10: `number` is 1–20 characters, unique per organization. */
export class CreateAccountRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 20, example: '1000' })
  @Required()
  @IsTextField(1, 20)
  number: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Salg af varer' })
  @Required()
  @IsTextField(1, 200)
  name: string;
}

export class CreateTaxCodeRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 20, example: 'U25' })
  @Required()
  @IsTextField(1, 20)
  code: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 10000, example: 2500, description: '25 % = 2500' })
  @Required()
  @IsIntegerField(0, 10_000)
  rate_basis_points: number;
}

export class EnrolOwnerRequestDto {
  @ApiProperty({ maxLength: 254, example: 'owner@example.dk' })
  @Required()
  @IsEmailField()
  email: string;

  /** CONTRACT §10: lets the owner sign in to the consent pages (§11); stored as an argon2id hash. */
  @ApiProperty({ required: false, minLength: 12, maxLength: 128, writeOnly: true })
  @Optional(null)
  @IsTextField(12, 128, { nullable: true })
  password: string | null;
}
