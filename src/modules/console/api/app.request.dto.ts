import { IsTextField } from '../../../shared/http/validation/constraints';
import { Required } from '../../../shared/http/validation/fields';

export class CreateAppRequestDto {
  @Required()
  @IsTextField(1, 200, { plain: true })
  name: string;
}
