import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { listOf, resultOf } from './console.openapi';
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
  @ConsoleOperation({
    operationId: 'listPendingRevisions',
    summary: 'Revisions submitted for review and not yet approved, oldest first',
    ...listOf('PendingRevision'),
    errors: ['invalid_input'],
    query: [{ name: 'pending', in: 'query', required: true, description: 'must be true', schema: { const: 'true' } }],
  })
  pendingRevisions(@Query('pending') pending: unknown) {
    if (pending !== 'true') {
      throw new DomainError('invalid_input', 'pending must be true', [{ pointer: '/pending', code: 'invalid_input', detail: 'must be true' }]);
    }
    return this.apps.pendingRevisions();
  }

  @Get('organizations/:organizationId')
  @ConsoleOperation({
    operationId: 'getOrganization',
    summary: 'An organization with its accounts, tax codes and owners',
    ...resultOf('Organization'),
    errors: ['not_found'],
  })
  organization(@UuidParam('organizationId', 'organization') organizationId: string) {
    return this.reads.organization(organizationId);
  }

  @Get('organizations/:organizationId/grants')
  @ConsoleOperation({
    operationId: 'listGrants',
    summary: "The organization's customer grants",
    ...listOf('Grant'),
    errors: ['not_found'],
  })
  grants(@UuidParam('organizationId', 'organization') organizationId: string) {
    return this.reads.grants(organizationId);
  }

  @Get('apps/:appId/webhook-deliveries')
  @ConsoleOperation({
    operationId: 'listWebhookDeliveries',
    summary: "The app's latest webhook deliveries, newest first",
    ...listOf('WebhookDelivery'),
    errors: ['invalid_input', 'not_found'],
    query: [
      { name: 'limit', in: 'query', required: false, description: 'how many (1–100)', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
    ],
  })
  deliveries(@UuidParam('appId', 'app') appId: string, @Query('limit') limit: unknown) {
    return this.reads.deliveries(appId, limit);
  }

  /** One more attempt at once, with the same webhook-id and body. */
  @Post('webhook-deliveries/:eventId/:endpointId/resend')
  @HttpCode(202)
  @ConsoleOperation({
    operationId: 'resendWebhookDelivery',
    summary: 'One more attempt at once (same webhook-id and body)',
    ...resultOf('WebhookDelivery'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  resend(@Param('eventId') eventId: string, @Param('endpointId') endpointId: string, @Body() _body: EmptyRequestDto) {
    return this.reads.resend(eventId, endpointId);
  }
}
