import { ApiProperty } from '@nestjs/swagger';
import { IsTextField } from '../../../shared/http/validation/constraints';
import { Required } from '../../../shared/http/validation/fields';

export class CreateAppRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @Required()
  @IsTextField(1, 200)
  name: string;
}
