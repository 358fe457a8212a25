import { ApiProperty } from '@nestjs/swagger';
import { IsArrayField, IsIntegerField, IsUuidField } from '../../../shared/http/validation/constraints';
import { Optional, Required } from '../../../shared/http/validation/fields';
import { MAX_GRANT_ACCOUNTS, MAX_GRANT_SECONDS } from '../../auth/domain/grant-rules';
import { SCOPES } from '../../auth/domain/scopes';

/** A posting mandate: an owner's consent for (organization, app), signed with a current one-time code. */
export class CreateMandateRequestDto {
  @ApiProperty({ format: 'uuid' })
  @Required()
  @IsUuidField()
  app_id: string;

  @ApiProperty({ format: 'uuid', description: 'a user with the owner role of the organization' })
  @Required()
  @IsUuidField()
  owner_user_id: string;

  @ApiProperty({ required: false, example: '123456', description: "the owner's current TOTP code (RFC 6238)" })
  @Optional(null)
  totp_code: unknown;
}

/**
 * The shape of a grant request. Each selected account and scope is judged by the use case (it needs
 * the organization's chart), at its own pointer `/account_ids/N`, `/scopes/N`. `totp_code` has no
 * constraint on purpose: any fault of it is 403 aal2_required, never 400 (CONTRACT §10).
 */
export class CreateGrantRequestDto extends CreateMandateRequestDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_GRANT_ACCOUNTS, description: 'distinct account ids of the organization' })
  @Required()
  @IsArrayField(1, MAX_GRANT_ACCOUNTS)
  account_ids: unknown[];

  @ApiProperty({ type: [String], enum: SCOPES, minItems: 1 })
  @Required()
  @IsArrayField(1, 20)
  scopes: unknown[];

  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: MAX_GRANT_SECONDS, default: MAX_GRANT_SECONDS })
  @Optional(MAX_GRANT_SECONDS)
  @IsIntegerField(1, MAX_GRANT_SECONDS)
  duration_seconds: number;
}
