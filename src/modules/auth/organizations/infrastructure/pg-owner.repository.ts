import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SECRET_CONTEXT, SecretBox } from '../../../../shared/crypto/secret-box';
import { DemoIdentitySql } from '../domain/demo-identity.sql';
import { OwnerRepository, type OwnerSecondFactor } from '../domain/owner.repository';

@Injectable()
export class PgOwnerRepository extends OwnerRepository {
  /** TOTP secrets are stored sealed (CONTRACT §8); a demo owner's second factor is its developer's (DemoIdentitySql). */
  constructor(
    private readonly box: SecretBox,
    private readonly demo: DemoIdentitySql,
  ) {
    super();
  }

  async enrol(m: EntityManager, organizationId: string, o: { userId: string; email: string; totpSecret: string; passwordHash: string | null }): Promise<void> {
    await m.query(`INSERT INTO users (id, email, totp_secret, password_hash) VALUES ($1, $2, $3, $4)`, [
      o.userId,
      o.email,
      this.box.seal(o.totpSecret, SECRET_CONTEXT.totp),
      o.passwordHash,
    ]);
    await m.query(`INSERT INTO organization_owners (organization_id, user_id) VALUES ($1, $2)`, [organizationId, o.userId]);
  }

  async findUserByEmailForEnrolment(m: EntityManager, email: string): Promise<{ userId: string; hasPassword: boolean } | null> {
    // two enrolments of one new email on two instances must not make two users
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('user-email:' || lower($1)))`, [email]);
    const rows: Array<{ id: string; has_password: boolean }> = await m.query(
      // a developer's demo identity is the developer's alone (CONTRACT §15): never the operator's owner
      `SELECT id, password_hash IS NOT NULL AS has_password FROM users WHERE lower(email) = lower($1) AND developer_id IS NULL
        ORDER BY created_at LIMIT 1 FOR UPDATE`,
      [email],
    );
    return rows[0] ? { userId: rows[0].id, hasPassword: rows[0].has_password } : null;
  }

  async setPasswordHash(m: EntityManager, userId: string, passwordHash: string): Promise<boolean | 'developer'> {
    const rows: Array<{ developer: boolean }> = await m.query(
      `WITH u AS (SELECT id, developer_id IS NOT NULL AS developer FROM users WHERE id = $1 FOR UPDATE),
            changed AS (UPDATE users SET password_hash = $2 FROM u WHERE users.id = u.id AND NOT u.developer RETURNING users.id)
       SELECT developer FROM u`,
      [userId, passwordHash],
    );
    return rows.length === 0 ? false : rows[0].developer ? 'developer' : true;
  }

  async addOwner(m: EntityManager, organizationId: string, userId: string): Promise<void> {
    await m.query(`INSERT INTO organization_owners (organization_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [organizationId, userId]);
  }

  async findOwnerForUpdate(m: EntityManager, organizationId: string, userId: string): Promise<OwnerSecondFactor | null> {
    const rows: Array<{ totp_secret: string | null; totp_last_step: string | null; developer_id: string | null }> = await m.query(
      `SELECT u.totp_secret, u.totp_last_step, u.developer_id
         FROM organization_owners o JOIN users u ON u.id = o.user_id
        WHERE o.organization_id = $1 AND o.user_id = $2
          FOR UPDATE OF u`,
      [organizationId, userId],
    );
    const r = rows[0];
    if (!r) return null;
    if (r.developer_id !== null) {
      // the demo company's owner signs with the developer's authenticator (CONTRACT §15): the developer's row, locked as its sign-in locks it
      const [d]: Array<{ totp_secret: string; totp_last_step: string | null }> = await m.query(this.demo.secondFactorForUpdate, [r.developer_id]);
      if (!d) return null;
      return {
        totpSecret: this.box.openAny(d.totp_secret, SECRET_CONTEXT.developerTotp),
        lastAcceptedStep: d.totp_last_step === null ? null : Number(d.totp_last_step),
        developerId: r.developer_id,
      };
    }
    if (r.totp_secret === null) return null;
    return {
      totpSecret: this.box.openStored(r.totp_secret, SECRET_CONTEXT.totp),
      lastAcceptedStep: r.totp_last_step === null ? null : Number(r.totp_last_step),
      developerId: null,
    };
  }

  async enrolDeveloper(m: EntityManager, organizationId: string, o: { userId: string; email: string; developerId: string }): Promise<void> {
    // one identity per developer: one made before (its demo company since gone) is the same user
    const [u]: Array<{ id: string }> = await m.query(
      `INSERT INTO users (id, email, developer_id) VALUES ($1, $2, $3)
       ON CONFLICT (developer_id) DO UPDATE SET email = EXCLUDED.email RETURNING id`,
      [o.userId, o.email, o.developerId],
    );
    await m.query(`INSERT INTO organization_owners (organization_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [organizationId, u.id]);
  }

  async consumeStep(m: EntityManager, owner: { userId: string; developerId: string | null }, step: number): Promise<boolean> {
    if (owner.developerId !== null)
      return (await m.query<unknown[]>(`WITH used AS (${this.demo.consumeStep}) SELECT id FROM used`, [owner.developerId, step])).length > 0;
    const userId = owner.userId;
    const rows: unknown[] = await m.query(
      `WITH used AS (
         UPDATE users SET totp_last_step = $2
          WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)
          RETURNING id)
       SELECT id FROM used`,
      [userId, step],
    );
    return rows.length > 0;
  }
}
