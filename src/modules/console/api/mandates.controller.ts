import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { MandateService } from '../../auth/grants';
import { CreateMandateRequestDto } from './grant.request.dto';
import { PathResourcesGuard } from './path-resources.guard';

/** Posting mandates (seed 5.7, CONTRACT §8, §10). */
@ApiTags('console')
@Controller('console/v1')
@UseGuards(PathResourcesGuard)
export class MandatesController {
  constructor(private readonly mandates: MandateService) {}

  @Post('organizations/:organizationId/mandates')
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createMandate',
    summary: 'Give a posting mandate (owner aal2)',
    ...resultOf('Created'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'app_not_approved', 'aal2_required', 'rate_limited'],
  })
  create(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateMandateRequestDto) {
    return this.mandates.createMandate(organizationId, body);
  }

  @Post('mandates/:mandateId/revoke')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'revokeMandate',
    summary: 'Revoke a posting mandate',
    ...resultOf('Revoked'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  revoke(@UuidParam('mandateId', 'mandate') mandateId: string, @Body() _body: EmptyRequestDto) {
    return this.mandates.revokeMandate(mandateId);
  }
}
