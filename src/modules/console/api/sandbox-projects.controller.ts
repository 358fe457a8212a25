import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { ApiTags } from '@nestjs/swagger';
import { ConsoleOperation, TRANSPORT_ERRORS } from '../../../shared/http/openapi/console-operation';
import { resultOf } from './console.openapi';
import { EmptyRequestDto } from '../../../shared/http/dto/empty.request.dto';
import { IsTextField } from '../../../shared/http/validation/constraints';
import { Optional } from '../../../shared/http/validation/fields';
import { SandboxService } from '../../auth/sandbox';
import { PathResourcesGuard } from './path-resources.guard';

export class CreateSandboxProjectRequestDto {
  @Optional(null)
  @IsTextField(1, 200, { nullable: true, plain: true })
  name: string | null;
}

@ApiTags('console')
@Controller('console/v1/sandbox/projects')
@UseGuards(PathResourcesGuard)
export class SandboxProjectsController {
  constructor(private readonly sandbox: SandboxService) {}

  @Post()
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createSandboxProject',
    summary: 'Provision a sandbox project',
    ...resultOf('SandboxProject'),
    errors: TRANSPORT_ERRORS,
    emptyBody: true,
  })
  create(@Body() body: CreateSandboxProjectRequestDto) {
    return this.sandbox.provisionProject(body.name);
  }

  @Post(':projectId/generations')
  @HttpCode(201)
  @ConsoleOperation({
    operationId: 'createSandboxGeneration',
    summary: "Supersede a sandbox project's generation",
    ...resultOf('SandboxGeneration'),
    errors: [...TRANSPORT_ERRORS, 'not_found'],
    emptyBody: true,
  })
  async createGeneration(@UuidParam('projectId', 'sandbox project') projectId: string, @Body() _body: EmptyRequestDto) {
    // the operator's call supersedes at once (the previous generation's tokens stop)
    const { generation_id, token } = await this.sandbox.provisionGeneration(projectId);
    return { generation_id, token };
  }
}
