import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
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
  @ConsoleOperation({
    operationId: 'createGrant',
    summary: 'Give a customer grant (owner aal2)',
    ...resultOf('GrantCreated'),
    // 409 resource_conflict: a demo company takes only its own developer's apps (CONTRACT §15)
    errors: [...TRANSPORT_ERRORS, 'not_found', 'app_not_approved', 'resource_conflict', 'aal2_required', 'rate_limited'],
  })
  create(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateGrantRequestDto) {
    return this.grants.createGrant(organizationId, body);
  }

  @Post('grants/:grantId/revoke')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'revokeGrant',
    summary: 'Revoke a grant',
    ...resultOf('Revoked'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  revoke(@UuidParam('grantId', 'grant') grantId: string, @Body() _body: EmptyRequestDto) {
    return this.grants.revokeGrant(grantId);
  }

  /** Answers the `hat_` token this once; only its hash is stored. */
  @Post('grants/:grantId/tokens')
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'issueToken',
    summary: 'Issue a production access token under a grant',
    ...resultOf('TokenIssued'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  issueToken(@UuidParam('grantId', 'grant') grantId: string, @Body() _body: EmptyRequestDto) {
    return this.grants.issueToken(grantId);
  }
}
