import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { OrganizationService } from '../../auth/organizations';
import { PathResourcesGuard } from './path-resources.guard';

@ApiTags('console')
@Controller('console/v1/accounts')
@UseGuards(PathResourcesGuard)
export class AccountsController {
  constructor(private readonly organizations: OrganizationService) {}

  /** An inactive account can no longer be referenced (422 reference_not_allowed). */
  @Post(':accountId/deactivate')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'deactivateAccount',
    summary: 'Deactivate an account',
    ...resultOf('AccountDeactivated'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  deactivate(@UuidParam('accountId', 'account') accountId: string, @Body() _body: EmptyRequestDto) {
    return this.organizations.deactivateAccount(accountId);
  }
}
