import { IsArrayField, IsIntegerField, IsUuidField } from '../../../shared/http/validation/constraints';
import { CanonicalId, CheckedByUseCase, Optional, Required } from '../../../shared/http/validation/fields';
import { MAX_GRANT_ACCOUNTS, MAX_GRANT_SECONDS } from '../../auth/grants';
import { SCOPES } from '../../../shared/domain/scopes';

/** A posting mandate: an owner's consent for (organization, app), signed with a current one-time code. */
export class CreateMandateRequestDto {
  @Required()
  @IsUuidField()
  @CanonicalId()
  app_id: string;

  @Required()
  @IsUuidField()
  @CanonicalId()
  owner_user_id: string;

  @Optional(null)
  @CheckedByUseCase({ type: 'string', example: '123456', description: "the owner's current TOTP code (RFC 6238); any fault is 403 aal2_required" })
  totp_code: unknown;
}

/**
 * The shape of a grant request. Each selected account and scope is judged by the use case (it needs
 * the organization's chart), at its own pointer `/account_ids/N`, `/scopes/N`. `totp_code` has no
 * constraint on purpose: any fault of it is 403 aal2_required, never 400 (CONTRACT §10).
 */
export class CreateGrantRequestDto extends CreateMandateRequestDto {
  @Required()
  @IsArrayField(1, MAX_GRANT_ACCOUNTS, { items: { type: 'string', format: 'uuid' } })
  account_ids: unknown[];

  @Required()
  @IsArrayField(1, 20, { items: { type: 'string', enum: SCOPES as string[] } })
  scopes: unknown[];

  @Optional(MAX_GRANT_SECONDS)
  @IsIntegerField(1, MAX_GRANT_SECONDS)
  duration_seconds: number;
}
