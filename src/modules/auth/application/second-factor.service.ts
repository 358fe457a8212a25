import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Aal2RequiredError } from '../domain/console.errors';
import { OwnerRepository } from '../domain/owner.repository';
import { verifyTotp } from '../domain/totp';

/**
 * The owner's second factor (aal2) of CONTRACT §8, for grants and mandates. Call it as the LAST check
 * of a use case, inside its transaction: the accepted step is written there, so the code is used up
 * only if that transaction commits, and two concurrent uses of one code cannot both succeed (the user
 * row is locked, and the step is stored with a compare-and-set).
 */
@Injectable()
export class SecondFactorService {
  constructor(private readonly owners: OwnerRepository) {}

  async consume(m: EntityManager, organizationId: string, ownerUserId: string, code: unknown, now: Date): Promise<void> {
    const owner = await this.owners.findOwnerForUpdate(m, organizationId, ownerUserId);
    if (!owner) throw new Aal2RequiredError();
    const result = verifyTotp(owner.totpSecret, code, now.getTime(), owner.lastAcceptedStep);
    if (!result.ok) throw new Aal2RequiredError();
    if (!(await this.owners.consumeStep(m, ownerUserId, result.step))) throw new Aal2RequiredError();
  }
}
