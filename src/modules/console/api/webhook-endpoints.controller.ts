import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
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
  enable(@UuidParam('endpointId', 'webhook endpoint') endpointId: string) {
    return this.endpoints.enable(endpointId);
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
  create(@UuidParam('appId', 'app') appId: string, @Body() body: CreateWebhookEndpointRequestDto) {
    return this.endpoints.register(appId, body.url, body.environment);
  }
}
