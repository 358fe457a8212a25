import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { OrganizationService } from '../../auth/organizations';
import { CreateAccountRequestDto, CreateOrganizationRequestDto, CreateTaxCodeRequestDto, EnrolOwnerRequestDto } from './organization.request.dto';
import { PathResourcesGuard } from './path-resources.guard';

/** Organizations and their chart of accounts, tax codes and owners (CONTRACT §10). */
@ApiTags('console')
@Controller('console/v1/organizations')
@UseGuards(PathResourcesGuard)
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationService) {}

  @Post()
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createOrganization',
    summary: 'Create a production organization',
    ...resultOf('Created'),
    errors: TRANSPORT_ERRORS,
  })
  create(@Body() body: CreateOrganizationRequestDto) {
    return this.organizations.createOrganization(body.name);
  }

  @Post(':organizationId/accounts')
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createAccount',
    summary: 'Add an account',
    ...resultOf('Created'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'resource_conflict'],
  })
  createAccount(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateAccountRequestDto) {
    return this.organizations.createAccount(organizationId, body.number, body.name);
  }

  @Post(':organizationId/tax-codes')
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createTaxCode',
    summary: 'Add a tax code',
    ...resultOf('Created'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'resource_conflict'],
  })
  createTaxCode(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateTaxCodeRequestDto) {
    return this.organizations.createTaxCode(organizationId, body.code, body.rate_basis_points);
  }

  /** Answers the owner's TOTP secret this once. */
  @Post(':organizationId/owners')
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'enrolOwner',
    summary: 'Enrol an owner (answers the TOTP secret once)',
    ...resultOf('OwnerEnrolled'),
    errors: [...TRANSPORT_ERRORS, 'not_found', 'resource_conflict'],
  })
  enrolOwner(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: EnrolOwnerRequestDto) {
    return this.organizations.enrolOwner(organizationId, body.email, body.password ?? null);
  }
}
