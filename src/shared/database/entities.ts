/**
 * TypeORM entity classes of every module, registered on the one data source. The schema itself comes
 * only from migrations.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ENTITIES: Function[] = [];
