import type { SqlExpr, SqlFragment } from '../../../../shared/database/sql-template';

/**
 * Port: the SQL parts of a demo company's identity (CONTRACT §15) that live in the developers module's
 * tables (`developers`, `developer_apps`): the demo owner (`users.developer_id`) signs in with the
 * developer's password and authenticator, and a demo company takes only its developer's apps. Organizations,
 * grants and consent compose these parts into their statements; the developers module, which builds on
 * them, binds the port (its `DemoIdentityModule`, global, imported by `DevelopersCoreModule` on both
 * listeners), so no module below developers imports it. `demoOrganizationOfApp` takes an SqlExpr and returns a
 * fragment of the SQL template; the others are plain SQL text. A statement built from them is the same
 * named prepared statement each time.
 */
export abstract class DemoIdentitySql {
  /** The password hash of the developer `developerId` (an expression of the composing statement), as a scalar sub-select. */
  abstract passwordHashOf(developerId: string): string;
  /** The developer $1's sealed TOTP secret and last accepted step, the row locked (their sign-in locks it too). */
  abstract readonly secondFactorForUpdate: string;
  /** Uses up the step $2 of the developer $1's code: one row (`id`) when it was newer than the last accepted one. */
  abstract readonly consumeStep: string;
  /** The demo organization of the developer who made the app `appId` (an expression), as a scalar sub-select; null for none. */
  abstract demoOrganizationOfApp(appId: SqlExpr): SqlFragment;
}
