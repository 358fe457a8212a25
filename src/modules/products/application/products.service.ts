import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../shared/domain/clock';
import { WriteAccessService } from '../../auth/application/write-access.service';
import type { CallerContext } from '../../auth/domain/caller-context';
import { IdempotencyService } from '../../idempotency/application/idempotency.service';
import { ReceiptsService } from '../../receipts/application/receipts.service';
import type { ProductInput } from '../domain/product';
import { ProductRepository } from '../domain/product.repository';

/** seed 2.5: the minimal create receipt. `environment` only on the first execution. */
export type ProductCreatedBody =
  | { id: string; created: true; operation_id: string; replayed: false; environment: 'sandbox' | 'production' }
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
   * commit in one transaction (CONTRACT §6); a taken code rolls all of it back (409, nothing stored).
   */
  async create(caller: CallerContext, key: string, input: ProductInput): Promise<ProductCreatedBody> {
    const id = randomUUID();
    const operationId = randomUUID();
    const first = { id, created: true as const, operation_id: operationId, replayed: false as const, environment: caller.environment };
    const { body } = await this.idempotency.execute(
      caller,
      key,
      'product.create',
      input,
      async (m) => {
        await this.writeAccess.assertStillAllowed(m, caller, { mandate: false });
        const createdAt = this.clock.now();
        await this.products.insert(m, {
          ...input,
          id,
          organizationId: caller.organizationId,
          environment: caller.environment,
          appId: caller.appId,
          operationId,
          createdAt,
        });
        await this.receipts.record(m, caller, {
          operationId,
          kind: 'product.create',
          resourceType: 'product',
          resourceId: id,
          completedAt: createdAt,
        });
        return first;
      },
      first,
    );
    return body as ProductCreatedBody;
  }
}
