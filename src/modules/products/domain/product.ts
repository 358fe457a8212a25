import type { NewResource } from '../../idempotency';

/** seed 2.4: the closed lists of the product register. `stk` and `stk.` are different units. */
export const PRODUCT_KINDS = ['goods', 'services'] as const;
export const PRODUCT_UNITS = ['stk', 'stk.', 'time', 'timer', 'kg', 'liter', 'km'] as const;

export type ProductKind = (typeof PRODUCT_KINDS)[number];
export type ProductUnit = (typeof PRODUCT_UNITS)[number];

/** The normalized product input (defaults filled by the server, CONTRACT §5). */
export interface ProductInput {
  code: string;
  name: string;
  description: string | null;
  kind: ProductKind;
  unit: ProductUnit;
  /** null: no price given; 0: an explicit free price (seed 2.4 rule 3) */
  unit_price_minor: number | null;
}

/** The create's receipt (CONTRACT §7): its kind, which is also the operation the key's fingerprint names, and what it names. */
export const PRODUCT_CREATE = { kind: 'product.create', resourceType: 'product' } as const;

/** A product as its create stores it: the input, with the ids, owner and time create-once made. */
export interface NewProduct extends ProductInput, NewResource {}
