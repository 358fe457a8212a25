import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { IdempotencyKey, IdempotencyKeyGuard } from '../../idempotency';
import { idempotencyRecordPrefetch } from '../../idempotency';
import { JournalService, type PostedBody, type PrepareResult } from '../application/journal.service';
import { journalReferencesPrefetch } from './journal-references.prefetch';
import { JournalRequestDto } from './journal.request.dto';

/** The normalized input: defaults filled by the pipe, uuids lower-cased (CONTRACT §5) — what the fingerprint covers. */
const normalized = (b: JournalRequestDto) => ({
  posting_date: b.posting_date,
  transaction_date: b.transaction_date,
  document_date: b.document_date,
  description: b.description,
  currency: b.currency,
  lines: b.lines.map((l) => ({
    account_id: l.account_id.toLowerCase(),
    debit_minor: l.debit_minor,
    credit_minor: l.credit_minor,
    tax_code_id: l.tax_code_id === null ? null : l.tax_code_id.toLowerCase(),
    dimension_refs: l.dimension_refs,
    line_text: l.line_text,
  })),
});

@ApiTags('journal')
@Controller(PARTNER_BASES.map((base) => `${base}/journal`))
export class JournalController {
  constructor(private readonly journal: JournalService) {}

  @Post('prepare')
  @HttpCode(200)
  @PartnerRoute('journal:prepare', { prefetch: journalReferencesPrefetch })
  @ApiOperation({ summary: 'Check a journal before posting it; no side effects (an Idempotency-Key is ignored)' })
  prepare(@Caller() caller: CallerContext, @Body() body: JournalRequestDto): Promise<PrepareResult> {
    return this.journal.prepare(caller, body);
  }

  @Post()
  @HttpCode(201)
  @PartnerRoute('journal:post', { mandate: true, prefetch: (req) => ({ ...idempotencyRecordPrefetch(req), ...journalReferencesPrefetch(req) }) })
  @UseGuards(IdempotencyKeyGuard)
  @ApiOperation({ summary: 'Post a journal (final); needs a posting mandate; exactly once per Idempotency-Key' })
  post(@Caller() caller: CallerContext, @IdempotencyKey() key: string, @Body() body: JournalRequestDto): Promise<PostedBody> {
    return this.journal.post(caller, key, normalized(body));
  }
}
