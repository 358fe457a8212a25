/** What the operator sees of an organization (CONTRACT §10): never a secret. */
export interface OrganizationView {
  id: string;
  name: string;
  accounts: Array<{ id: string; number: string; name: string; active: boolean }>;
  tax_codes: Array<{ id: string; code: string; rate_basis_points: number }>;
  owners: Array<{ user_id: string; email: string }>;
}

/** Port (the console's read): an organization with its chart and owners. Ids are lower-case uuids. */
export abstract class OrganizationReadRepository {
  abstract organization(organizationId: string): Promise<OrganizationView | null>;
}
