import type { Transaction } from '../../../../shared/domain/transaction';

export interface OwnerSecondFactor {
  totpSecret: string;
  /** The last TOTP step accepted for this user (RFC 6238 §5.2 replay rule), or null. */
  lastAcceptedStep: number | null;
  /**
   * The developer this user stands for (a demo company's owner, CONTRACT §15), else null: the secret and
   * last step above are then the developer's, and the developer's account is what a wrong code locks.
   */
  developerId: string | null;
}

/** Port: users with the owner role of an organization and their enrolled TOTP secret. */
export abstract class OwnerRepository {
  /** A new user, owner of the organization, with an enrolled secret (and a password hash, or null). */
  abstract enrol(
    tx: Transaction,
    organizationId: string,
    owner: { userId: string; email: string; totpSecret: string; passwordHash: string | null },
  ): Promise<void>;
  /**
   * The user enrolled with this email (compared without regard to case), serializing enrolments of
   * one email until the transaction ends; null when there is none.
   */
  abstract findUserByEmailForEnrolment(tx: Transaction, email: string): Promise<{ userId: string; hasPassword: boolean } | null>;
  /**
   * Sets or replaces the user's password hash; false when there is no such user, 'developer' (nothing
   * set) for a developer's demo identity, whose password is the developer account's (CONTRACT §15).
   */
  abstract setPasswordHash(tx: Transaction, userId: string, passwordHash: string): Promise<boolean | 'developer'>;
  /** Makes an existing user an owner of the organization too (nothing when it already is). */
  abstract addOwner(tx: Transaction, organizationId: string, userId: string): Promise<void>;
  /**
   * The second factor of `userId` if that user is an owner of the organization, locking the user row
   * until the transaction ends; null otherwise.
   */
  abstract findOwnerForUpdate(tx: Transaction, organizationId: string, userId: string): Promise<OwnerSecondFactor | null>;
  /**
   * Records `step` as the user's last accepted step if it is later than the stored one
   * (compare-and-set). False when another transaction got there first: the code is then used.
   */
  abstract consumeStep(tx: Transaction, owner: { userId: string; developerId: string | null }, step: number): Promise<boolean>;
  /**
   * A developer's demo identity (CONTRACT §15): a user with the developer's email and no password or
   * secret of its own, made owner of the (demo) organization.
   */
  abstract enrolDeveloper(tx: Transaction, organizationId: string, owner: { userId: string; email: string; developerId: string }): Promise<void>;
}
