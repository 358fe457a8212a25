import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { BODY_ERRORS, IDEMPOTENCY_ERRORS, PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { Idempotent, IdempotencyKey } from '../../idempotency';
import { idempotencyRecordPrefetch } from '../../idempotency';
import { JournalService, type PostedBody, type PrepareResult } from '../application/journal.service';
import { journalReferencesPrefetch } from './journal-references.prefetch';
import { JournalRequestDto } from './journal.request.dto';
import { POST_SCHEMAS, PREPARE_SCHEMAS } from './journal.openapi';

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
  @PartnerOperation({
    operationId: 'prepareJournal',
    summary: 'Check a journal before posting it',
    success: partnerJson(200, 'The journal is valid; nothing was written (an Idempotency-Key is ignored).', ref('PrepareResult')),
    errors: [...BODY_ERRORS, 'journal_unbalanced', 'reference_not_allowed'],
    schemas: PREPARE_SCHEMAS,
  })
  prepare(@Caller() caller: CallerContext, @Body() body: JournalRequestDto): Promise<PrepareResult> {
    return this.journal.prepare(caller, body);
  }

  @Post()
  @HttpCode(201)
  @PartnerRoute('journal:post', { mandate: true, prefetch: (req) => ({ ...idempotencyRecordPrefetch(req), ...journalReferencesPrefetch(req) }) })
  @Idempotent()
  @PartnerOperation({
    operationId: 'postJournal',
    summary: 'Post a journal (final)',
    success: partnerJson(201, 'Posted, or a replay of the first posting with this Idempotency-Key.', ref('JournalPostResult')),
    errors: ['mandate_required', ...BODY_ERRORS, ...IDEMPOTENCY_ERRORS, 'journal_unbalanced', 'reference_not_allowed', 'period_locked'],
    schemas: POST_SCHEMAS,
  })
  post(@Caller() caller: CallerContext, @IdempotencyKey() key: string, @Body() body: JournalRequestDto): Promise<PostedBody> {
    return this.journal.post(caller, key, normalized(body));
  }
}
