import { Controller, Get } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { ReceiptsService } from '../application/receipts.service';
import type { OperationReceiptView } from '../domain/operation-receipt';
import { RECEIPT_SCHEMAS } from './operations.openapi';

@ApiTags('operations')
@Controller(PARTNER_BASES.map((base) => `${base}/operations`))
export class OperationsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @Get(':operationId')
  @PartnerRoute('operations:read')
  @PartnerOperation({
    operationId: 'getOperation',
    summary: 'The receipt of a completed write',
    success: partnerJson(200, 'The receipt.', ref('OperationReceipt')),
    errors: ['not_found'],
    schemas: RECEIPT_SCHEMAS,
  })
  find(@Caller() caller: CallerContext, @UuidParam('operationId', 'operation') operationId: string): Promise<OperationReceiptView> {
    return this.receipts.find(caller, operationId);
  }
}
