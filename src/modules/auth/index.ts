/**
 * The auth module's public surface for the composition root (src/*.ts): AuthModule, which composes
 * access, organizations, apps, grants, sandbox and consent, and what the root wires beside it. Each of
 * the six keeps its own public surface (src/modules/auth/<name>/index.ts, sql.ts) for other modules.
 */
export { AuthModule } from './auth.module';
export { PartnerAuthGuard } from './access';
export { ConsentPagesModule } from './consent';
export { GrantEventsModule, GrantsApiModule } from './grants';
export { OrganizationService } from './organizations';
export { SandboxService } from './sandbox';
