import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { OrganizationService } from '../../auth/organizations';
import {
  CreateAccountRequestDto,
  CreateOrganizationRequestDto,
  CreateTaxCodeRequestDto,
  EnrolOwnerRequestDto,
} from './organization.request.dto';
import { PathResourcesGuard } from './path-resources.guard';

/** Organizations and their chart of accounts, tax codes and owners (CONTRACT §10). */
@ApiTags('console')
@Controller('console/v1/organizations')
@UseGuards(PathResourcesGuard)
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationService) {}

  @Post()
  @HttpCode(201)
  create(@Body() body: CreateOrganizationRequestDto) {
    return this.organizations.createOrganization(body.name);
  }

  @Post(':organizationId/accounts')
  @HttpCode(201)
  createAccount(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateAccountRequestDto) {
    return this.organizations.createAccount(organizationId, body.number, body.name);
  }

  @Post(':organizationId/tax-codes')
  @HttpCode(201)
  createTaxCode(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: CreateTaxCodeRequestDto) {
    return this.organizations.createTaxCode(organizationId, body.code, body.rate_basis_points);
  }

  /** Answers the owner's TOTP secret this once. */
  @Post(':organizationId/owners')
  @HttpCode(201)
  enrolOwner(@UuidParam('organizationId', 'organization') organizationId: string, @Body() body: EnrolOwnerRequestDto) {
    return this.organizations.enrolOwner(organizationId, body.email, body.password ?? null);
  }
}
