import { Injectable } from '@nestjs/common';
import { isUuid } from '../../../shared/http/validation/constraints';
import { type PathResource, ResourceLookupRepository } from '../domain/resource-lookup.repository';

/** Whether the resources a console path names exist; an id that is not a uuid names nothing. */
@Injectable()
export class ResourceLookupService {
  constructor(private readonly lookup: ResourceLookupRepository) {}

  exists(kind: PathResource, id: string): Promise<boolean> {
    if (!isUuid(id)) return Promise.resolve(false);
    return this.lookup.exists(kind, id.toLowerCase());
  }

  revisionOfApp(appId: string, revisionId: string): Promise<boolean> {
    if (!isUuid(appId) || !isUuid(revisionId)) return Promise.resolve(false);
    return this.lookup.revisionOfApp(appId.toLowerCase(), revisionId.toLowerCase());
  }
}
