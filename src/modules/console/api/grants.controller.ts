import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { GrantService } from '../../auth/grants';
import { CreateGrantRequestDto } from './grant.request.dto';
import { PathResourcesGuard } from './path-resources.guard';

/** Customer grants and the production access tokens issued under them (CONTRACT §8, §10). */
@ApiTags('console')
@Controller('console/v1')
@UseGuards(PathResourcesGuard)
export class GrantsController {
  constructor(private readonly grants: GrantService) {}

  @Post('organizations/:organizationId/grants')
  @HttpCode(201)
  create(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateGrantRequestDto) {
    return this.grants.createGrant(organizationId, body);
  }

  @Post('grants/:grantId/revoke')
  @HttpCode(200)
  revoke(@UuidParam('grantId', 'grant') grantId: string, @Body() _body: EmptyRequestDto) {
    return this.grants.revokeGrant(grantId);
  }

  /** Answers the `hat_` token this once; only its hash is stored. */
  @Post('grants/:grantId/tokens')
  @HttpCode(201)
  issueToken(@UuidParam('grantId', 'grant') grantId: string, @Body() _body: EmptyRequestDto) {
    return this.grants.issueToken(grantId);
  }
}
