import { Module } from '@nestjs/common';
import { AccessModule } from './access';
import { AppsModule } from './apps';
import { ConsentCoreModule } from './consent';
import { GrantsModule } from './grants';
import { OrganizationsModule } from './organizations';
import { SandboxModule } from './sandbox';

/**
 * Auth (the design card's Auth module): who may call the API on whose behalf. It composes the six auth
 * modules under src/modules/auth and re-exports them, so a module that imports AuthModule gets their
 * exported services: access (the token look-up and per-call access check), organizations (organizations,
 * their accounts and owners), apps, grants (grants and mandates), sandbox and consent (the OAuth flow's
 * services). It has no controllers, so either listener may import it; the partner listener's OAuth
 * endpoints and consent pages are ConsentPagesModule, which the composition root imports beside it (and
 * Connected apps, OwnerPagesModule of src/modules/owner-pages, a module above auth).
 */
@Module({
  imports: [AccessModule, OrganizationsModule, AppsModule, GrantsModule, SandboxModule, ConsentCoreModule],
  exports: [AccessModule, OrganizationsModule, AppsModule, GrantsModule, SandboxModule, ConsentCoreModule],
})
export class AuthModule {}
