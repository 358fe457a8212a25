/** What the operator sees of a grant (CONTRACT §10). */
export interface GrantView {
  id: string;
  app_id: string;
  scopes: string[];
  account_ids: string[];
  expires_at: string;
  revoked: boolean;
}

/** Port (the console's read): an organization's grants, newest first. Ids are lower-case uuids. */
export abstract class GrantReadRepository {
  abstract grants(organizationId: string): Promise<GrantView[]>;
}
