import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { DomainError } from '../../../shared/domain/errors';
import { AppService } from '../../auth/apps';
import { ConsoleReadService } from '../application/console-read.service';
import { PathResourcesGuard } from './path-resources.guard';

/** The console's reads and the resend of a webhook delivery (CONTRACT §10). No read returns a secret. */
@ApiTags('console')
@Controller('console/v1')
@UseGuards(PathResourcesGuard)
export class ConsoleReadsController {
  constructor(
    private readonly reads: ConsoleReadService,
    private readonly apps: AppService,
  ) {}

  /** Revisions submitted for review (the developer console's **Submit for review**) and not yet approved, oldest first. */
  @Get('revisions')
  pendingRevisions(@Query('pending') pending: unknown) {
    if (pending !== 'true') {
      throw new DomainError('invalid_input', 'pending must be true', [{ pointer: '/pending', code: 'invalid_input', detail: 'must be true' }]);
    }
    return this.apps.pendingRevisions();
  }

  @Get('organizations/:organizationId')
  organization(@UuidParam('organizationId', 'organization') organizationId: string) {
    return this.reads.organization(organizationId);
  }

  @Get('organizations/:organizationId/grants')
  grants(@UuidParam('organizationId', 'organization') organizationId: string) {
    return this.reads.grants(organizationId);
  }

  @Get('apps/:appId/webhook-deliveries')
  deliveries(@UuidParam('appId', 'app') appId: string, @Query('limit') limit: unknown) {
    return this.reads.deliveries(appId, limit);
  }

  /** One more attempt at once, with the same webhook-id and body. */
  @Post('webhook-deliveries/:eventId/:endpointId/resend')
  @HttpCode(202)
  resend(@Param('eventId') eventId: string, @Param('endpointId') endpointId: string, @Body() _body: EmptyRequestDto) {
    return this.reads.resend(eventId, endpointId);
  }
}
