import { IsEmailField, IsTextField } from '../../../shared/http/validation/constraints';
import { Required } from '../../../shared/http/validation/fields';

/** Issue 35: the operator makes a developer account (the way in while DEVELOPER_SIGNUP=closed). */
export class CreateDeveloperRequestDto {
  @Required()
  @IsEmailField()
  email: string;

  /** the developer signs in to the developer console (CONTRACT §15) with it; stored as an argon2id hash */
  @Required()
  @IsTextField(12, 128, {}, { writeOnly: true })
  password: string;
}
