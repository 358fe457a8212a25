import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { IsOneOfField, IsTextField } from '../../../shared/http/validation/constraints';
import { Required } from '../../../shared/http/validation/fields';
import { PathResourcesGuard } from './path-resources.guard';
import { WebhookEndpointsService } from '../../webhooks';
import type { Environment } from '../../../shared/domain/caller-context';

export class CreateWebhookEndpointRequestDto {
  @Required()
  @IsTextField(1, 2000, { plain: true }, { description: 'an absolute http or https URL (judged by the use case)', example: 'https://partner.example/webhooks' })
  url: string;

  @Required()
  @IsOneOfField(['sandbox', 'production'])
  environment: Environment;
}

/** Console: an endpoint enabled again (CONTRACT §9, §10). */
@ApiTags('console')
@Controller('console/v1/webhook-endpoints')
export class WebhookEndpointEnableController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post(':endpointId/enable')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'enableWebhookEndpoint',
    summary: 'Enable a webhook endpoint again; its pending deliveries become due at once',
    ...resultOf('WebhookEndpointEnabled'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  enable(@UuidParam('endpointId', 'webhook endpoint') endpointId: string) {
    return this.endpoints.enable(endpointId);
  }
}

export class RecoverWebhookEndpointRequestDto {
  @Required()
  @IsTextField(1, 64, undefined, {
    format: 'date-time',
    description: 'ISO 8601, with its zone; within the retention (WEBHOOK_RETENTION_DAYS) and not in the future',
    example: '2026-11-25T08:00:00Z',
  })
  since: string;
}

/**
 * Console: the webhook tools (CONTRACT §9 "Signing secrets and recovery", §10). An unknown endpoint is
 * 404 before the body is looked at (PathResourcesGuard).
 */
@ApiTags('console')
@Controller('console/v1/webhook-endpoints/:webhookEndpointId')
@UseGuards(PathResourcesGuard)
export class WebhookEndpointToolsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post('rotate-secret')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'rotateWebhookSecret',
    summary:
      'Issue a new signing secret (answered once); for 24 h every delivery carries the new and the previous signature; at most 3 rotations per endpoint in 24 h (429 beyond)',
    ...resultOf('WebhookSecretRotated'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'rate_limited'],
    emptyBody: true,
  })
  rotateSecret(@UuidParam('webhookEndpointId', 'webhook endpoint') endpointId: string, @Body() _body: EmptyRequestDto) {
    return this.endpoints.rotateSecret(endpointId);
  }

  @Post('recover')
  @HttpCode(202)
  @ConsoleOperation({
    operationId: 'recoverWebhookEndpoint',
    summary: "Deliver again every event of the endpoint's app and environment created since a time (within the retention)",
    ...resultOf('WebhookRecovery'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'resource_conflict'],
  })
  recover(@UuidParam('webhookEndpointId', 'webhook endpoint') endpointId: string, @Body() body: RecoverWebhookEndpointRequestDto) {
    return this.endpoints.recover(endpointId, body.since);
  }

  @Post('test')
  @HttpCode(202)
  @ConsoleOperation({
    operationId: 'sendWebhookTest',
    summary: 'Send one webhook.test event to this endpoint only (never in the events feed)',
    ...resultOf('WebhookTestSent'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  test(@UuidParam('webhookEndpointId', 'webhook endpoint') endpointId: string, @Body() _body: EmptyRequestDto) {
    return this.endpoints.sendTest(endpointId);
  }
}

/** Console: webhook endpoints of an app (CONTRACT §9, §10). */
@ApiTags('console')
@Controller('console/v1/apps/:appId/webhook-endpoints')
@UseGuards(PathResourcesGuard)
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint (answers its secret once); 409 when the app and environment have the most endpoints allowed',
    ...resultOf('WebhookEndpointCreated'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'resource_conflict'],
  })
  create(@UuidParam('appId', 'app') appId: string, @Body() body: CreateWebhookEndpointRequestDto) {
    return this.endpoints.register(appId, body.url, body.environment);
  }
}
