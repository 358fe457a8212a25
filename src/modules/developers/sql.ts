import { sql, type SqlExpr, type SqlFragment } from '../../shared/database/sql-template';

/**
 * SQL parts of the developers module's tables (developers, developer_apps), for statements that other
 * modules compose (docs/architecture.md): the demo company of CONTRACT §15. Its owner is a `users` row
 * that stands for a developer (`users.developer_id`); the owners' sign-in and second factor read the
 * developer's credentials through these parts, so the email, password and authenticator are the
 * developer's (one row, one last-used step, one lockout). Imports nothing but src/shared.
 */
export const DevelopersSql = {
  /** The password hash of the developer `developerId` (an expression of the composing statement), as a scalar sub-select. */
  passwordHashOf: (developerId: string): string => `(SELECT d.password_hash FROM developers d WHERE d.id = ${developerId})`,
  /** The developer $1's sealed TOTP secret and last accepted step, the row locked (their sign-in locks it too). */
  secondFactorForUpdate: `SELECT totp_secret, totp_last_step FROM developers WHERE id = $1 FOR UPDATE`,
  /** Uses up the step $2 of the developer $1's code: one row when it was newer than the last accepted one. */
  consumeStep: `UPDATE developers SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
  /**
   * The demo organization of the developer who made the app `appId` (an expression of the composing
   * statement), as a scalar sub-select: null for an app no developer made, or a developer without one.
   */
  demoOrganizationOfApp: (appId: SqlExpr): SqlFragment =>
    sql`(SELECT d.demo_organization_id FROM developer_apps a JOIN developers d ON d.id = a.developer_id WHERE a.app_id = ${appId})`,
} as const;
