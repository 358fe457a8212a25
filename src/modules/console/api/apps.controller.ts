import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { AppService } from '../../apps';
import { CreateAppRequestDto } from './app.request.dto';
import { PathResourcesGuard } from './path-resources.guard';

/** Apps, their numbered revisions and approval (CONTRACT §10). */
@ApiTags('console')
@Controller('console/v1/apps')
@UseGuards(PathResourcesGuard)
export class AppsController {
  constructor(private readonly apps: AppService) {}

  @Post()
  @HttpCode(201)
  create(@Body() body: CreateAppRequestDto) {
    return this.apps.createApp(body.name);
  }

  @Post(':appId/revisions')
  @HttpCode(201)
  createRevision(@Param('appId') appId: string, @Body() _body: EmptyRequestDto) {
    return this.apps.createRevision(appId);
  }

  @Post(':appId/revisions/:revisionId/approve')
  @HttpCode(200)
  approve(@Param('appId') appId: string, @Param('revisionId') revisionId: string, @Body() _body: EmptyRequestDto) {
    return this.apps.approveRevision(appId, revisionId);
  }
}
