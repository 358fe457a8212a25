import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import { type ChartAccount, ChartReadRepository, type ChartTaxCode } from '../domain/chart';

/** Either scope that builds journals may read what a journal may reference (CONTRACT §7). */
const JOURNAL_SCOPES = ['journal:prepare', 'journal:post'] as const;

@ApiTags('journal')
@Controller(PARTNER_BASES)
export class ChartController {
  constructor(private readonly chart: ChartReadRepository) {}

  @Get('accounts')
  @PartnerRoute(JOURNAL_SCOPES)
  @ApiOperation({ summary: 'The active accounts this token may post to, by number' })
  async accounts(@Caller() caller: CallerContext): Promise<{ data: ChartAccount[] }> {
    return { data: await this.chart.accounts(caller.organizationId, caller.permittedAccounts) };
  }

  @Get('tax-codes')
  @PartnerRoute(JOURNAL_SCOPES)
  @ApiOperation({ summary: "The organization's tax codes, by code" })
  async taxCodes(@Caller() caller: CallerContext): Promise<{ data: ChartTaxCode[] }> {
    return { data: await this.chart.taxCodes(caller.organizationId) };
  }
}
