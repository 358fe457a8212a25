/**
 * An open database transaction as the domain sees it: a handle that repository ports receive so that
 * every write of a use case lands in the same transaction. What it is (TypeORM's EntityManager) is
 * known only to infrastructure, which is why this type names nothing of it.
 */
export type Transaction = object & { readonly __transaction?: never };
