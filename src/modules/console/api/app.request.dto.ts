import { IsFieldWith, IsTextField } from '../../../shared/http/validation/constraints';
import { Optional, Required } from '../../../shared/http/validation/fields';
import { CVR_RULE, isValidCvr } from '../../auth/apps';

export class CreateAppRequestDto {
  @Required()
  @IsTextField(1, 200, { plain: true })
  name: string;
}

/**
 * CONTRACT §21: the operator verified the publisher of the app's approved revision. `cvr`: the CVR
 * number the operator checked, when the publisher gave one (8 digits passing the modulus 11 check;
 * it must be the approved revision's).
 */
export class PublisherVerificationRequestDto {
  @Optional(null)
  @IsFieldWith('cvr', isValidCvr, CVR_RULE, { nullable: true }, { type: 'string', pattern: '^[0-9]{8}$' })
  cvr: string | null;
}
