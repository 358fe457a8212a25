import type { Transaction } from '../../../../shared/domain/transaction';

export interface SandboxProjectPlan {
  projectId: string;
  name: string;
  organizationId: string;
  appId: string;
  /** false: `appId` is an existing app (a developer's, CONTRACT §10/§15: its sandbox is under its own id) */
  newApp: boolean;
  generationId: string;
  mandateId: string;
  tokenHash: string;
  accounts: Array<{ id: string; number: string; name: string }>;
  taxCodes: Array<{ id: string; code: string; rateBasisPoints: number }>;
}

/** Port: sandbox projects and their app generations (CONTRACT §8 "Sandbox"). */
export abstract class SandboxRepository {
  /** Writes a whole new project: organization, chart, app (unless it exists), mandate, generation 1 and its token. */
  abstract createProject(tx: Transaction, plan: SandboxProjectPlan): Promise<void>;
  /** The id of the oldest sandbox project, if any (outside any transaction: the first start asks). */
  abstract firstProjectId(): Promise<string | null>;
  /**
   * Makes a new generation the project's current one and stores its token hash. The generation it
   * replaces keeps working `keepPreviousSeconds` more (CONTRACT §21; 0: its tokens stop at once).
   * Returns null for an unknown project, else until when the previous generation works (null: not at all).
   */
  abstract createGeneration(
    tx: Transaction,
    projectId: string,
    generationId: string,
    tokenHash: string,
    keepPreviousSeconds?: number,
  ): Promise<{ previousUntil: Date | null } | null>;
}
