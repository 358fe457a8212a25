import { Injectable, Logger } from '@nestjs/common';
import type { Transaction } from '../../../../shared/domain/transaction';
import { RateLimitedError } from '../../../../shared/domain/errors';
import { Aal2RequiredError } from '../../../../shared/domain/errors';
import { OwnerRepository } from '../domain/owner.repository';
import { SecondFactorLockoutRepository } from '../domain/second-factor-lockout.repository';
import { verifyTotp } from '../domain/totp';

/**
 * The owner's second factor (aal2) of CONTRACT §8, for grants, mandates and the consent pages. Call
 * it as the LAST check of a use case, inside its transaction: the accepted step is written there, so
 * the code is used up only if that transaction commits, and two concurrent uses of one code cannot
 * both succeed (the user row is locked, and the step is stored with a compare-and-set).
 *
 * Lockout (CONTRACT §8): after 5 wrong codes of one owner within 15 minutes, that owner's codes are
 * refused for 15 minutes with 429 rate_limited, right code or not. A wrong code is counted in its own
 * committed transaction although the failing call rolls back; the owner's row lock orders the
 * attempts, so the count is exact across instances.
 */
@Injectable()
export class SecondFactorService {
  private readonly logger = new Logger('second-factor');

  constructor(
    private readonly owners: OwnerRepository,
    private readonly lockouts: SecondFactorLockoutRepository,
  ) {}

  async consume(m: Transaction, organizationId: string, ownerUserId: string, code: unknown, now: Date): Promise<void> {
    const owner = await this.owners.findOwnerForUpdate(m, organizationId, ownerUserId);
    if (!owner) throw new Aal2RequiredError();
    // a demo company's owner is the developer (CONTRACT §15): the developer's account counts the wrong codes
    const subject = owner.developerId ?? ownerUserId;
    await this.guard(m, subject, now, owner.developerId === null ? 'owner' : 'developer', async () => {
      const result = verifyTotp(owner.totpSecret, code, now.getTime(), owner.lastAcceptedStep);
      return result.ok && (await this.owners.consumeStep(m, { userId: ownerUserId, developerId: owner.developerId }, result.step));
    });
  }

  /**
   * The lockout above around any account's code check (issue 35: developers' accounts have the owners'
   * lockout). `subjectId` is the account's id — an owner's user id or a developer's id: both are random
   * UUIDs, so one table counts both —, and its row must already be locked by the caller in `m`.
   * `check` verifies the code and uses it up (true) or not (false). Throws RateLimitedError while the
   * account is locked (the code is not looked at), Aal2RequiredError on a wrong code (counted).
   */
  async guard(m: Transaction, subjectId: string, now: Date, kind: 'owner' | 'developer', check: () => Promise<boolean>): Promise<void> {
    const lockedUntil = await this.lockouts.lockedUntil(m, subjectId, now);
    if (lockedUntil) {
      throw new RateLimitedError(
        (lockedUntil.getTime() - now.getTime()) / 1000,
        `Too many wrong one-time codes: this ${kind}'s codes are refused for a while; retry after the time in Retry-After`,
      );
    }
    if (!(await check())) {
      await this.lockouts.recordFailure(m, subjectId, now, (until) =>
        this.logger.warn(
          { [kind === 'owner' ? 'ownerId' : 'developerId']: subjectId, lockedUntil: until.toISOString() },
          `${kind} second factor locked after 5 wrong codes in 15 minutes`,
        ),
      );
      throw new Aal2RequiredError();
    }
  }
}
