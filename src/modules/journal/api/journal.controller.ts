import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { BODY_ERRORS, IDEMPOTENCY_ERRORS, PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { Idempotent, IdempotencyKey } from '../../idempotency';
import { idempotencyRecordPrefetch } from '../../idempotency';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { type BatchBody, JournalService, type PostedBody, type PrepareResult, type ReversedBody } from '../application/journal.service';
import { journalBatchReferencesPrefetch, journalReferencesPrefetch } from './journal-references.prefetch';
import { REVERSAL_BEFORE_ENTRY } from '../domain/journal-reversal';
import { JournalBatchRequestDto, JournalRequestDto, ReversalRequestDto } from './journal.request.dto';
import { BATCH_SCHEMAS, POST_SCHEMAS, PREPARE_SCHEMAS, REVERSAL_SCHEMAS } from './journal.openapi';

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

  @Post('batch')
  @HttpCode(201)
  @PartnerRoute('journal:post', { mandate: true, prefetch: (req) => ({ ...idempotencyRecordPrefetch(req), ...journalBatchReferencesPrefetch(req) }) })
  @Idempotent()
  @PartnerOperation({
    operationId: 'postJournalBatch',
    summary: 'Post 1–100 journals at once, all or nothing (final)',
    success: partnerJson(
      201,
      'Posted, with consecutive voucher numbers per year in input order, or a replay of the first posting with this Idempotency-Key.',
      ref('JournalBatchResult'),
    ),
    errors: ['mandate_required', ...BODY_ERRORS, ...IDEMPOTENCY_ERRORS, 'journal_unbalanced', 'reference_not_allowed', 'period_locked'],
    schemas: BATCH_SCHEMAS,
  })
  postBatch(@Caller() caller: CallerContext, @IdempotencyKey() key: string, @Body() body: JournalBatchRequestDto): Promise<BatchBody> {
    return this.journal.postBatch(caller, key, body.journals.map(normalized));
  }

  @Post('entries/:entryId/reversal')
  @HttpCode(201)
  @PartnerRoute('journal:post', { mandate: true, prefetch: idempotencyRecordPrefetch })
  @Idempotent()
  @PartnerOperation({
    operationId: 'reverseJournalEntry',
    summary: 'Correct a posted entry by a new entry that reverses it (final)',
    success: partnerJson(201, 'The reversal posted, or a replay of the first one with this Idempotency-Key.', ref('ReversalResult')),
    errors: ['mandate_required', ...BODY_ERRORS, 'not_found', ...IDEMPOTENCY_ERRORS, 'resource_conflict', REVERSAL_BEFORE_ENTRY, 'period_locked'],
    schemas: REVERSAL_SCHEMAS,
  })
  reverse(
    @Caller() caller: CallerContext,
    @IdempotencyKey() key: string,
    @UuidParam('entryId', 'journal entry') entryId: string,
    @Body() body: ReversalRequestDto,
  ): Promise<ReversedBody> {
    return this.journal.reverse(caller, key, entryId, { posting_date: body.posting_date, description: body.description });
  }
}
