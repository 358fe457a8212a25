import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsArrayField } from '../../../shared/http/validation/constraints';
import { Required } from '../../../shared/http/validation/fields';
import { PathResourcesGuard } from '../../console/api/path-resources.guard';
import { OAuthClientService } from '../application/oauth-client.service';
import { MAX_REDIRECT_URIS } from '../domain/redirect-uri';

export class RegisterOAuthClientRequestDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_REDIRECT_URIS, example: ['https://app.example/callback'] })
  @Required()
  @IsArrayField(1, MAX_REDIRECT_URIS)
  redirect_uris: unknown[];
}

/** Console (CONTRACT §10): an app's OAuth client registration, and the app read that shows its redirect URIs. */
@ApiTags('console')
@Controller('console/v1/apps')
@UseGuards(PathResourcesGuard)
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientService) {}

  /** The client secret is in this answer only. */
  @Post(':appId/oauth')
  @HttpCode(200)
  register(@Param('appId') appId: string, @Body() body: RegisterOAuthClientRequestDto) {
    return this.clients.register(appId, body.redirect_uris);
  }

  @Get(':appId')
  read(@Param('appId') appId: string) {
    return this.clients.readApp(appId);
  }
}
