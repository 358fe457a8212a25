import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CallerContext } from '../../../../shared/domain/caller-context';
import { SCOPES } from '../../../../shared/domain/scopes';
import { PARTNER_BASES } from '../../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../access';
import { TokenGrantService, type TokenGrantView } from '../application/token-grant.service';

@ApiTags('grant')
@Controller(PARTNER_BASES)
export class GrantController {
  constructor(private readonly grants: TokenGrantService) {}

  /** CONTRACT §18: any scope may read it. */
  @Get('grant')
  @PartnerRoute(SCOPES)
  @ApiOperation({ summary: 'What this token may do' })
  grant(@Caller() caller: CallerContext): Promise<TokenGrantView> {
    return this.grants.view(caller);
  }
}
