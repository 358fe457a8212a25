import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { NotFoundError } from '../../../shared/domain/errors';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { JournalService } from '../../journal';
import { PathResourcesGuard } from './path-resources.guard';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Period close (CONTRACT §10); postings into a closed month get 422 period_locked. */
@ApiTags('console')
@Controller('console/v1/organizations/:organizationId/periods')
@UseGuards(PathResourcesGuard)
export class PeriodsController {
  constructor(private readonly journal: JournalService) {}

  /** A path that names no month (e.g. 2026-13) names no period: 404, like any unknown resource. */
  @Post(':period/close')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'closePeriod',
    summary: 'Close a period (YYYY-MM)',
    ...resultOf('PeriodClosed'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  close(@UuidParam('organizationId', 'organization') organizationId: string, @Param('period') period: string, @Body() _body: EmptyRequestDto) {
    if (!MONTH.test(period) || period.startsWith('0000')) throw new NotFoundError('period: use YYYY-MM');
    return this.journal.closePeriod(organizationId, period);
  }
}
