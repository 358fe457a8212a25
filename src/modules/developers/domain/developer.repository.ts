import type { Transaction } from '../../../shared/domain/transaction';

/** A developer as sign-in needs it: the TOTP secret opened, the last accepted step (CONTRACT §8's one use per code). */
export interface DeveloperCredentials {
  id: string;
  email: string;
  passwordHash: string;
  totpSecret: string;
  lastAcceptedStep: number | null;
}

/** An app a developer made: the production app and the sandbox project made with it (null while being made). */
export interface DeveloperApp {
  id: string;
  appId: string;
  sandboxProjectId: string;
  sandboxOrganizationId: string;
  sandboxAppId: string;
}

/** One refused partner call (CONTRACT §15): never a body, a header value, a token or an account name. */
export interface RefusedCall {
  appId: string;
  environment: string;
  at: Date;
  method: string;
  path: string;
  status: number;
  code: string;
  requestId: string;
  pointers: string[];
}

/** Port: the developers module's tables (`developers`, `developer_apps`, `refused_calls`). */
export abstract class DeveloperRepository {
  /** Creates the developer unless the email has one (compared without case); false when it has. */
  abstract create(tx: Transaction, d: { id: string; email: string; passwordHash: string; totpSecret: string; lastAcceptedStep: number }): Promise<boolean>;
  abstract findByEmail(tx: Transaction, email: string): Promise<DeveloperCredentials | null>;
  /** The developer's row, locked: sign-ins of one developer take turns, so a code is used once. */
  abstract findForUpdate(tx: Transaction, id: string): Promise<DeveloperCredentials | null>;
  /** Records the accepted step if it is later than the last one; false when it is not (a reused code). */
  abstract consumeStep(tx: Transaction, id: string, step: number): Promise<boolean>;

  /** Reserves one of the developer's `max` app places (developer row locked); false when all are taken. */
  abstract reserveApp(tx: Transaction, developerId: string, reservationId: string, max: number): Promise<boolean>;
  abstract completeApp(tx: Transaction, reservationId: string, app: Omit<DeveloperApp, 'id'>): Promise<void>;
  abstract dropReservation(tx: Transaction, reservationId: string): Promise<void>;
  /** The developer's apps, oldest first. */
  abstract appsOf(tx: Transaction, developerId: string): Promise<DeveloperApp[]>;
  /** The app if this developer made it, else null (another developer's app is as unknown as no app). */
  abstract appOf(tx: Transaction, developerId: string, appId: string): Promise<DeveloperApp | null>;

  /** Stores refused calls and keeps only the newest `keep` per app and environment. */
  abstract recordRefusals(tx: Transaction, calls: RefusedCall[], keep: number): Promise<void>;
  /** The newest refused calls of these apps, newest first, at most `limit` per app and environment. */
  abstract refusedCalls(tx: Transaction, appIds: string[], limit: number): Promise<RefusedCall[]>;
}
