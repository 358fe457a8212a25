import { DomainError } from '../../../shared/domain/domain-error';
import type { RowInsert } from '../../../shared/domain/row-insert';
import type { NewProduct } from './product';

/**
 * seed 4.2 rule 5: the code exists in the uniqueness context (organization and environment, compared
 * exactly). The existing product is not returned or described (seed 1: no indirect product lookup).
 */
export class ResourceConflictError extends DomainError {
  constructor() {
    super('resource_conflict', 'A product with this code already exists; a code is a stable business reference');
  }
}

/** Port: the product register. */
export abstract class ProductRepository {
  /** The product's row, for the write that stores it; a taken code is a ResourceConflictError. */
  abstract rowFor(product: NewProduct): RowInsert;
}
