/** The resources a console path can name. */
export type PathResource = 'organization' | 'account' | 'app' | 'grant' | 'mandate' | 'sandbox_project' | 'user' | 'webhook_endpoint';

/** Port: whether a resource named in a path exists (one indexed look-up). Ids are lower-case uuids. */
export abstract class ResourceLookupRepository {
  abstract exists(kind: PathResource, id: string): Promise<boolean>;
  /** Whether the revision exists and belongs to the app. */
  abstract revisionOfApp(appId: string, revisionId: string): Promise<boolean>;
}
