import { Injectable } from '@nestjs/common';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { type CreatedBody, CreateOnceService } from '../../idempotency';
import { PRODUCT_CREATE, type ProductInput } from '../domain/product';
import { ProductRepository } from '../domain/product.repository';

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductRepository,
    private readonly once: CreateOnceService,
  ) {}

  /**
   * seed 4.2: create, not upsert, exactly once per Idempotency-Key (CreateOnceService: the product's row
   * with the record, the receipt and the outbox row as one statement; seed 2.5's body); a taken code
   * rolls all of it back (409, nothing stored).
   */
  create(caller: CallerContext, key: string, input: ProductInput): Promise<CreatedBody> {
    return this.once.create(caller, key, PRODUCT_CREATE, input, (made) => [this.products.rowFor({ ...input, ...made })]);
  }
}
