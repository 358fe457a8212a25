import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { AppService } from '../../auth/apps';
import { CreateAppRequestDto, PublisherVerificationRequestDto } from './app.request.dto';
import { PathResourcesGuard } from './path-resources.guard';

/** Apps, their numbered revisions and approval (CONTRACT §10). */
@ApiTags('console')
@Controller('console/v1/apps')
@UseGuards(PathResourcesGuard)
export class AppsController {
  constructor(private readonly apps: AppService) {}

  @Post()
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createApp',
    summary: 'Create an app',
    ...resultOf('Created'),
    errors: TRANSPORT_ERRORS,
  })
  create(@Body() body: CreateAppRequestDto) {
    return this.apps.createApp(body.name);
  }

  @Post(':appId/revisions')
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createAppRevision',
    summary: 'Create an app revision',
    ...resultOf('AppRevision'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  createRevision(@UuidParam('appId', 'app') appId: string, @Body() _body: EmptyRequestDto) {
    return this.apps.createRevision(appId);
  }

  @Post(':appId/revisions/:revisionId/approve')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'approveAppRevision',
    summary: 'Approve an app revision',
    ...resultOf('AppRevisionApproved'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  approve(@UuidParam('appId', 'app') appId: string, @UuidParam('revisionId', 'revision') revisionId: string, @Body() _body: EmptyRequestDto) {
    return this.apps.approveRevision(appId, revisionId);
  }

  /**
   * CONTRACT §21: the operator verified who publishes the app — the publisher of its approved revision.
   * Owners then no longer read "Not verified by <SERVICE_NAME>" on the consent page; a later revision
   * keeps the verification only if it carries the same publisher.
   */
  @Post(':appId/publisher-verification')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'verifyAppPublisher',
    summary: "Verify the publisher of the app's approved revision",
    ...resultOf('PublisherVerified'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'app_not_approved', 'resource_conflict'],
    emptyBody: true,
  })
  verifyPublisher(@UuidParam('appId', 'app') appId: string, @Body() body: PublisherVerificationRequestDto) {
    return this.apps.verifyPublisher(appId, { cvr: body.cvr ?? undefined });
  }
}
