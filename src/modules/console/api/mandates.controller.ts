import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
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
  create(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateMandateRequestDto) {
    return this.mandates.createMandate(organizationId, body);
  }

  @Post('mandates/:mandateId/revoke')
  @HttpCode(200)
  revoke(@UuidParam('mandateId', 'mandate') mandateId: string, @Body() _body: EmptyRequestDto) {
    return this.mandates.revokeMandate(mandateId);
  }
}
