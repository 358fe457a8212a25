import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ResourceLookupService } from '../application/resource-lookup.service';
import { NotFoundError } from '../../../shared/domain/errors';
import type { PathResource } from '../domain/resource-lookup.repository';

/** Path parameter name → what it names. */
const PATH_PARAMS: ReadonlyArray<[string, PathResource, string]> = [
  ['organizationId', 'organization', 'organization'],
  ['accountId', 'account', 'account'],
  ['appId', 'app', 'app'],
  ['grantId', 'grant', 'grant'],
  ['mandateId', 'mandate', 'mandate'],
  ['projectId', 'sandbox_project', 'sandbox project'],
  ['userId', 'user', 'user'],
  ['webhookEndpointId', 'webhook_endpoint', 'webhook endpoint'],
];

/**
 * CONTRACT §10: the resource named in the path is judged before the body — an unknown (or non-uuid)
 * id is 404 whatever the body holds. Guards run before the validation pipe, so this answers first;
 * the use case checks again inside its transaction.
 */
@Injectable()
export class PathResourcesGuard implements CanActivate {
  constructor(private readonly lookup: ResourceLookupService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const params = context.switchToHttp().getRequest<Request>().params as Record<string, string>;
    for (const [name, kind, label] of PATH_PARAMS) {
      if (params[name] !== undefined && !(await this.lookup.exists(kind, params[name]))) throw new NotFoundError(label);
    }
    if (params.revisionId !== undefined && !(await this.lookup.revisionOfApp(params.appId, params.revisionId))) {
      throw new NotFoundError('revision');
    }
    return true;
  }
}
