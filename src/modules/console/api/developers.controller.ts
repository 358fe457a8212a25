import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { DeveloperOperatorService } from '../../developers';
import { CreateDeveloperRequestDto } from './developer.request.dto';

/** Developer accounts (CONTRACT §15) made by the operator: `POST /console/v1/developers`. */
@ApiTags('console')
@Controller('console/v1/developers')
export class DevelopersController {
  constructor(private readonly developers: DeveloperOperatorService) {}

  /** Answers the developer's TOTP secret this once; 409 resource_conflict for an email that has an account. */
  @Post()
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createDeveloper',
    summary: 'Create a developer account, also while DEVELOPER_SIGNUP=closed (answers the TOTP secret once)',
    ...resultOf('DeveloperCreated'),
    errors: [...TRANSPORT_ERRORS, 'resource_conflict'],
  })
  create(@Body() body: CreateDeveloperRequestDto) {
    return this.developers.create(body.email, body.password);
  }
}
