import { Controller, Get } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { ReceiptsService } from '../application/receipts.service';
import type { OperationReceiptView } from '../domain/operation-receipt';

@ApiTags('operations')
@Controller(PARTNER_BASES.map((base) => `${base}/operations`))
export class OperationsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @Get(':operationId')
  @PartnerRoute('operations:read')
  @ApiOperation({ summary: 'The receipt of a completed write (product create, final posting)' })
  find(@Caller() caller: CallerContext, @UuidParam('operationId', 'operation') operationId: string): Promise<OperationReceiptView> {
    return this.receipts.find(caller, operationId);
  }
}
