import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { IsArrayField } from '../../../shared/http/validation/constraints';
import { Required } from '../../../shared/http/validation/fields';
import { PathResourcesGuard } from './path-resources.guard';
import { OAuthClientService } from '../../auth/consent';
import { MAX_REDIRECT_URIS } from '../../auth/consent';
import { WebhookEndpointsService } from '../../webhooks';

export class RegisterOAuthClientRequestDto {
  @Required()
  @IsArrayField(1, MAX_REDIRECT_URIS, {
    items: {
      type: 'string',
      format: 'uri',
      description: 'absolute https, or http on localhost/127.0.0.1; no fragment',
      examples: ['https://app.example/callback'],
    },
  })
  redirect_uris: unknown[];
}

/** Console (CONTRACT §10): an app's OAuth client registration, and the app read that shows its redirect URIs and webhook endpoints. */
@ApiTags('console')
@Controller('console/v1/apps')
@UseGuards(PathResourcesGuard)
export class OAuthClientsController {
  constructor(
    private readonly clients: OAuthClientService,
    private readonly webhookEndpoints: WebhookEndpointsService,
  ) {}

  /** The client secret is in this answer only. */
  @Post(':appId/oauth')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'setOAuthClient',
    summary: "Register the app's OAuth redirect URIs and issue a client secret",
    ...resultOf('OAuthClient'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
  })
  register(@UuidParam('appId', 'app') appId: string, @Body() body: RegisterOAuthClientRequestDto) {
    return this.clients.register(appId, body.redirect_uris);
  }

  @Get(':appId')
  @ConsoleOperation({
    operationId: 'getApp',
    summary: 'An app with its revisions, OAuth redirect URIs and webhook endpoints',
    ...resultOf('App'),
    errors: ['not_found'],
  })
  async read(@UuidParam('appId', 'app') appId: string) {
    const app = await this.clients.readApp(appId);
    return { ...app, webhook_endpoints: await this.webhookEndpoints.endpoints(appId) };
  }
}
