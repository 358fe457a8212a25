import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../shared/domain/clock';
import { WriteAccessService } from '../../auth/grants';
import type { CallerContext, Environment } from '../../../shared/domain/caller-context';
import { IdempotencyService } from '../../idempotency';
import { ReceiptsService } from '../../receipts';
import type { ProductInput } from '../domain/product';
import { ProductRepository } from '../domain/product.repository';

/** seed 2.5: the minimal create receipt. `environment` only on the first execution. */
export type ProductCreatedBody =
  | { id: string; created: true; operation_id: string; replayed: false; environment: Environment }
  | { id: string; created: true; operation_id: string; replayed: true };

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductRepository,
    private readonly idempotency: IdempotencyService,
    private readonly receipts: ReceiptsService,
    private readonly clock: Clock,
    private readonly writeAccess: WriteAccessService,
  ) {}

  /**
   * seed 4.2: create, not upsert. The product, the idempotency record, the receipt and the outbox row
   * are written by one statement (CONTRACT §6: they commit together); a taken code rolls all of it back
   * (409, nothing stored).
   */
  async create(caller: CallerContext, key: string, input: ProductInput): Promise<ProductCreatedBody> {
    // a replay is answered from the record read with the token before any of this is built
    const { body } = await this.idempotency.executeAsOneStatement(caller, key, 'product.create', input, () => {
      const id = randomUUID();
      const operationId = randomUUID();
      const createdAt = this.clock.now();
      return {
        response: { id, created: true as const, operation_id: operationId, replayed: false as const, environment: caller.environment },
        rows: [
          this.products.rowFor({ ...input, id, organizationId: caller.organizationId, environment: caller.environment, appId: caller.appId, operationId, createdAt }),
          ...this.receipts.rowsFor(caller, { operationId, kind: 'product.create', resourceType: 'product', resourceId: id, completedAt: createdAt }),
        ],
        // CONTRACT §8: the grant is re-checked FOR SHARE by the same statement (a revocation wins)
        gate: this.writeAccess.gateFor(caller),
      };
    });
    return body as ProductCreatedBody;
  }
}
