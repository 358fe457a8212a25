import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  create(@Body() body: CreateDeveloperRequestDto) {
    return this.developers.create(body.email, body.password);
  }
}
