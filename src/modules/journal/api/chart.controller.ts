import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import { type ChartAccount, ChartReadRepository, type ChartTaxCode } from '../domain/chart';
import { ACCOUNT_LIST_SCHEMAS, TAX_CODE_LIST_SCHEMAS } from './journal.openapi';

/** Either scope that builds journals may read what a journal may reference (CONTRACT §7). */
const JOURNAL_SCOPES = ['journal:prepare', 'journal:post'] as const;

@ApiTags('journal')
@Controller(PARTNER_BASES)
export class ChartController {
  constructor(private readonly chart: ChartReadRepository) {}

  @Get('accounts')
  @PartnerRoute(JOURNAL_SCOPES)
  @PartnerOperation({
    operationId: 'listAccounts',
    summary: 'The accounts a journal may use',
    success: partnerJson(200, 'The permitted active accounts, by number.', ref('AccountList')),
    errors: [],
    schemas: ACCOUNT_LIST_SCHEMAS,
  })
  async accounts(@Caller() caller: CallerContext): Promise<{ data: ChartAccount[] }> {
    return { data: await this.chart.accounts(caller.organizationId, caller.permittedAccounts) };
  }

  @Get('tax-codes')
  @PartnerRoute(JOURNAL_SCOPES)
  @PartnerOperation({
    operationId: 'listTaxCodes',
    summary: 'The tax codes a journal may use',
    success: partnerJson(200, "The organization's tax codes, by code.", ref('TaxCodeList')),
    errors: [],
    schemas: TAX_CODE_LIST_SCHEMAS,
  })
  async taxCodes(@Caller() caller: CallerContext): Promise<{ data: ChartTaxCode[] }> {
    return { data: await this.chart.taxCodes(caller.organizationId) };
  }
}
