import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CallerContext, Environment } from '../../../shared/domain/caller-context';
import { Clock } from '../../../shared/domain/clock';
import type { NumberedStep, RowInsert } from '../../../shared/domain/row-insert';
import { OperationReceiptRows, WriteAccessGate } from '../domain/create-once.ports';
import { IdempotencyService } from './idempotency.service';

/** An exactly-once write as create-once knows it: what its key and its receipt name, and the access it re-checks. */
export interface OnceOperation {
  /** the receipt's kind (CONTRACT §7), also the operation in the key's fingerprint (§6) */
  readonly kind: string;
  /** the receipt's `resource.type` */
  readonly resourceType: string;
  /** the statement re-checks the posting mandate too (CONTRACT §8: final posting); default false */
  readonly mandate?: boolean;
}

/** What a first execution creates, made once no committed record answers the key: its ids, its owner (the caller), its time. */
export interface NewResource {
  id: string;
  organizationId: string;
  environment: Environment;
  appId: string;
  operationId: string;
  createdAt: Date;
}

/** seed 2.5: the minimal create receipt. `environment` only on the first execution. */
export type CreatedBody =
  | { id: string; created: true; operation_id: string; replayed: false; environment: Environment }
  | { id: string; created: true; operation_id: string; replayed: true };

/** The owner's part of a numbered write (a posting, an attachment): its first body without the number, and its step. */
export interface NumberedCreation<R> {
  /** the first execution's body; the statement completes it with the number it takes (NumberedStep.responseKey) */
  response: R;
  step: NumberedStep;
  /** what the receipt names when it is not `made.id` (a batch's receipt names its operation) */
  resourceId?: string;
}

/**
 * The one create-once of every exactly-once write (CONTRACT §6, §7, §8): the key and the fingerprint of
 * the normalized input, the ids and time of the first execution, its receipt and `operation.completed`
 * event, the grant's re-check, and the replay — all in one place. The owner gives only its own rows (or
 * its numbered step) and its own checks; IdempotencyService writes them as ONE statement with the claim,
 * and answers a replay (or a reused key) from the record read with the token without building anything.
 * Stateless: each module that writes lists it among its providers (with IdempotencyModule, ReceiptsModule
 * and GrantsModule imported: they bind the ports).
 */
@Injectable()
export class CreateOnceService {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly receipts: OperationReceiptRows,
    private readonly access: WriteAccessGate,
    private readonly clock: Clock,
  ) {}

  /**
   * seed 4.2: create, not upsert. The owner's rows, the idempotency record, the receipt and the outbox row
   * are written by one statement (they commit together); a unique violation of the owner's row (a taken
   * code) rolls all of it back and nothing is stored. The answer is seed 2.5's create receipt.
   */
  async create(
    caller: CallerContext,
    key: string,
    operation: OnceOperation,
    normalizedInput: unknown,
    /** the owner's rows of the new resource; called only for a first execution */
    rows: (made: NewResource) => readonly RowInsert[],
  ): Promise<CreatedBody> {
    const { body } = await this.idempotency.executeAsOneStatement(caller, key, operation.kind, normalizedInput, () => {
      const made = this.newResource(caller);
      return {
        response: { id: made.id, created: true as const, operation_id: made.operationId, replayed: false as const, environment: caller.environment },
        rows: [...rows(made), ...this.receiptRows(caller, operation, made, made.id)],
        gate: this.gate(caller, operation),
      };
    });
    return body as CreatedBody;
  }

  /**
   * A write that takes a gapless number in its statement (a final posting, a reversal, a batch, an
   * attachment): the gate, the owner's numbered step, the claim and the receipt's rows as ONE statement
   * (IdempotencyService.executeNumbered); the owner's `check` runs only once no committed record answers
   * the key, and when it fails, a revocation or a record committed meanwhile wins over it (CONTRACT §3).
   */
  async createNumbered<R extends Record<string, unknown>>(
    caller: CallerContext,
    key: string,
    operation: OnceOperation,
    normalizedInput: unknown,
    /** the owner's part; called only for a first execution */
    build: (made: NewResource) => NumberedCreation<R>,
    /** the write's own checks (may throw) */
    check: () => Promise<void>,
  ): Promise<R> {
    const { body } = await this.idempotency.executeNumbered(
      caller,
      key,
      operation.kind,
      normalizedInput,
      () => {
        const made = this.newResource(caller);
        const { response, step, resourceId = made.id } = build(made);
        return { response, step, rows: this.receiptRows(caller, operation, made, resourceId), gate: this.gate(caller, operation) };
      },
      check,
    );
    return body;
  }

  private newResource(caller: CallerContext): NewResource {
    const id = randomUUID();
    const operationId = randomUUID();
    const createdAt = this.clock.now();
    return { id, organizationId: caller.organizationId, environment: caller.environment, appId: caller.appId, operationId, createdAt };
  }

  private receiptRows(caller: CallerContext, operation: OnceOperation, made: NewResource, resourceId: string): RowInsert[] {
    const { kind, resourceType } = operation;
    return this.receipts.rowsFor(caller, { operationId: made.operationId, kind, resourceType, resourceId, completedAt: made.createdAt });
  }

  // CONTRACT §8: the grant is re-checked FOR SHARE by the same statement (a revocation wins)
  private gate(caller: CallerContext, operation: OnceOperation) {
    return this.access.gateFor(caller, { mandate: operation.mandate ?? false });
  }
}
