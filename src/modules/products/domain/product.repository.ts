import { ResourceConflictError } from '../../../shared/domain/errors';
import type { RowInsert } from '../../../shared/domain/row-insert';
import type { NewProduct } from './product';

/**
 * seed 4.2 rule 5: the code exists in the uniqueness context (organization and environment, compared
 * exactly). The existing product is not returned or described (seed 1: no indirect product lookup).
 */
export class ProductCodeTakenError extends ResourceConflictError {
  constructor() {
    super('A product with this code already exists; a code is a stable business reference');
  }
}

/** Port: the product register. */
export abstract class ProductRepository {
  /** The product's row, for the write that stores it; a taken code is a ProductCodeTakenError. */
  abstract rowFor(product: NewProduct): RowInsert;
}
