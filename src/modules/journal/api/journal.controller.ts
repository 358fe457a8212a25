import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/api/partner-route.decorator';
import type { CallerContext } from '../../auth/domain/caller-context';
import { JournalService, type PrepareResult } from '../application/journal.service';
import { JournalRequestDto } from './journal.request.dto';

@ApiTags('journal')
@Controller(PARTNER_BASES.map((base) => `${base}/journal`))
export class JournalController {
  constructor(private readonly journal: JournalService) {}

  @Post('prepare')
  @HttpCode(200)
  @PartnerRoute('journal:prepare')
  @ApiOperation({ summary: 'Check a journal before posting it; no side effects (an Idempotency-Key is ignored)' })
  @ApiOkResponse({
    schema: {
      example: {
        valid: true,
        posted: false,
        checked: ['input', 'grant', 'references'],
        not_checked: ['commit_time_period_locks', 'accounting_transaction'],
      },
    },
  })
  prepare(@Caller() caller: CallerContext, @Body() body: JournalRequestDto): Promise<PrepareResult> {
    return this.journal.prepare(caller, body);
  }
}
