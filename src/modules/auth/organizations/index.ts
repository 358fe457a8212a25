// The organizations module's public surface: other modules and the composition root import only this file.
export { OrganizationsModule } from './organizations.module';
export { OrganizationService } from './application/organization.service';
export { SecondFactorService } from './application/second-factor.service';
export { OrganizationRepository } from './domain/organization.repository';
export { DemoIdentitySql } from './domain/demo-identity.sql';
export { OrganizationReadRepository, type OrganizationView } from './domain/organization-read.repository';
export { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from './domain/password';
export { generateTotpSecret, totpCodeAt, totpUri, verifyTotp } from './domain/totp';
export { ORGANIZATIONS_FACTS } from './facts';
