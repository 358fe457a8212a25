import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { OwnerPasswordService } from '../application/owner-password.service';
import { SetPasswordRequestDto } from './organization.request.dto';
import { PathResourcesGuard } from './path-resources.guard';

/** Owners as users (CONTRACT §10): the consent pages' password. */
@ApiTags('console')
@Controller('console/v1/users')
@UseGuards(PathResourcesGuard)
export class UsersController {
  constructor(private readonly passwords: OwnerPasswordService) {}

  /** Sets or replaces the password; the owner's consent sessions end. */
  @Post(':userId/password')
  @HttpCode(200)
  @ConsoleOperation({
    operationId: 'setOwnerPassword',
    summary: "Set or replace an owner's password (ends the owner's consent sessions)",
    ...resultOf('PasswordSet'),
    // 409: a developer's demo company owner, whose password is the developer account's (CONTRACT §15)
    errors: [...TRANSPORT_ERRORS, 'not_found', 'resource_conflict'],
  })
  setPassword(@UuidParam('userId', 'user') userId: string, @Body() body: SetPasswordRequestDto) {
    return this.passwords.setPassword(userId, body.password);
  }
}
