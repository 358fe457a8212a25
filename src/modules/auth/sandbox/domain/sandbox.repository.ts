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
   * Makes a new generation the project's current one (superseding the previous generation's tokens)
   * and stores its token hash. Returns false for an unknown project.
   */
  abstract createGeneration(
    tx: Transaction,
    projectId: string,
    generationId: string,
    tokenHash: string,
  ): Promise<boolean>;
}
