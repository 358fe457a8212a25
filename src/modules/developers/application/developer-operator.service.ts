import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { ResourceConflictError, toInputError } from '../../../shared/domain/errors';
import { generateTotpSecret, hashPassword, totpUri } from '../../auth/organizations';
import { DeveloperRepository } from '../domain/developer.repository';
import { DemoCompanyService } from './demo-company.service';
import { translate } from '../../../shared/web';
import '../views/messages';
import { credentialErrors } from './developer-account.service';

/** The console API's developer (issue 35: the operator creates developers, the way in while sign-up is closed). */
export interface CreatedDeveloper {
  id: string;
  email: string;
  totp_secret: string;
  totp_uri: string;
  /** the developer's demo company (CONTRACT §15) */
  demo_organization_id: string;
}

/** What the operator does with developer accounts (the console API, `POST /console/v1/developers`). */
@Injectable()
export class DeveloperOperatorService {
  private readonly logger = new Logger('developers');

  constructor(
    private readonly repo: DeveloperRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly demo: DemoCompanyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Makes a developer (issue 35; the way in while DEVELOPER_SIGNUP=closed): the email is
   * the operator's word, so no link; the TOTP secret is answered once. 400 for a bad field, 409 for an
   * email that has an account.
   */
  async create(emailRaw: unknown, passwordRaw: unknown): Promise<CreatedDeveloper> {
    const email = typeof emailRaw === 'string' ? emailRaw.trim() : '';
    const password = typeof passwordRaw === 'string' ? passwordRaw : '';
    const errors = credentialErrors(email, password);
    const violations = [
      ...(errors.email ? [{ pointer: '/email', code: 'invalid_input' as const, detail: translate('en', errors.email) }] : []),
      ...(errors.password ? [{ pointer: '/password', code: 'invalid_input' as const, detail: translate('en', errors.password) }] : []),
    ];
    if (violations.length > 0) throw toInputError(violations);
    const secret = generateTotpSecret();
    const id = randomUUID();
    const passwordHash = await hashPassword(password);
    const created = await this.transactions.run(async (m) => {
      const made = await this.repo.create(m, { id, email, passwordHash, totpSecret: secret, lastAcceptedStep: null, at: this.clock.now() });
      if (!made) return null;
      await this.repo.closeSignups(m, email);
      return this.demo.ensureWithin(m, id);
    });
    if (!created) throw new ResourceConflictError('A developer with this email exists');
    this.logger.log({ developerId: id }, 'developer account created by the operator');
    return { id, email, totp_secret: secret, totp_uri: totpUri(this.config.serviceName, email, secret), demo_organization_id: created.id };
  }
}
