import { environment, object, ref, type Schema, uuid } from '../../../shared/http/openapi/common';

/** The answers of `POST /products` in the partner document (CONTRACT §7, §13): exactly the members listed. */
export const CREATE_PRODUCT_SCHEMAS: Record<string, Schema> = {
  ProductCreated: object({ id: uuid, created: { const: true }, operation_id: uuid, replayed: { const: false }, environment }, undefined, {
    description: 'First execution of POST /products.',
  }),
  ProductReplayed: object({ id: uuid, created: { const: true }, operation_id: uuid, replayed: { const: true } }, undefined, {
    description: "A replay (same Idempotency-Key, same input): the first execution's ids, without `environment`.",
  }),
  // CONTRACT §13: the 201 body is closed itself (additionalProperties: false), and oneOf says which of
  // the two it is: a first execution carries `environment`, a replay does not
  ProductCreateResult: object(
    { id: uuid, created: { const: true }, operation_id: uuid, replayed: { type: 'boolean' }, environment },
    ['id', 'created', 'operation_id', 'replayed'],
    { oneOf: [ref('ProductCreated'), ref('ProductReplayed')], description: 'The answer of POST /products: its first execution or a replay.' },
  ),
};
