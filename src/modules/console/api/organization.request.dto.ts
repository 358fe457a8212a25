import { IsEmailField, IsIntegerField, IsTextField } from '../../../shared/http/validation/constraints';
import { Optional, Required } from '../../../shared/http/validation/fields';

export class CreateOrganizationRequestDto {
  @Required()
  @IsTextField(1, 200, { plain: true })
  name: string;
}

/** CONTRACT §10: `number` is 1–20 characters, unique per organization. */
export class CreateAccountRequestDto {
  @Required()
  @IsTextField(1, 20, { plain: true })
  number: string;

  @Required()
  @IsTextField(1, 200, { plain: true })
  name: string;
}

export class CreateTaxCodeRequestDto {
  @Required()
  @IsTextField(1, 20, { plain: true })
  code: string;

  @Required()
  @IsIntegerField(0, 10_000)
  rate_basis_points: number;
}

/** CONTRACT §10 `POST /users/{user_id}/password`: sets or replaces the owner's password. */
export class SetPasswordRequestDto {
  @Required()
  @IsTextField(12, 128, { plain: true }, { writeOnly: true })
  password: string;
}

export class EnrolOwnerRequestDto {
  @Required()
  @IsEmailField()
  email: string;

  /** CONTRACT §10: lets the owner sign in to the consent pages (§11); stored as an argon2id hash. */
  @Optional(null)
  @IsTextField(12, 128, { nullable: true, plain: true }, { writeOnly: true })
  password: string | null;
}
