import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../../shared/http/openapi/common';
import { PartnerOperation, partnerJson } from '../../../../shared/http/openapi/partner-operation';
import type { CallerContext } from '../../../../shared/domain/caller-context';
import { SCOPES } from '../../../../shared/domain/scopes';
import { PARTNER_BASES } from '../../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../access';
import { TokenGrantService, type TokenGrantView } from '../application/token-grant.service';
import { GRANT_EVENT_SCHEMAS, TOKEN_GRANT_SCHEMAS } from './grant.openapi';

@ApiTags('grant')
@Controller(PARTNER_BASES)
export class GrantController {
  constructor(private readonly grants: TokenGrantService) {}

  /** CONTRACT §18: any scope may read it. */
  @Get('grant')
  @PartnerRoute(SCOPES)
  @PartnerOperation({
    operationId: 'getGrant',
    summary: 'What this token may do',
    success: partnerJson(200, "The grant of this token (in the sandbox: the project's access).", ref('TokenGrant')),
    errors: [],
    schemas: { ...TOKEN_GRANT_SCHEMAS, ...GRANT_EVENT_SCHEMAS },
  })
  grant(@Caller() caller: CallerContext): Promise<TokenGrantView> {
    return this.grants.view(caller);
  }
}
