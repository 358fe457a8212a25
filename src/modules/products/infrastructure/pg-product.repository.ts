import { Injectable } from '@nestjs/common';
import type { RowInsert } from '../../../shared/domain/row-insert';
import type { NewProduct } from '../domain/product';
import { ProductRepository, ProductCodeTakenError } from '../domain/product.repository';

const COLUMNS = [
  ['organization_id', 'uuid'],
  ['id', 'uuid'],
  ['environment', 'text'],
  ['code', 'text'],
  ['name', 'text'],
  ['description', 'text'],
  ['kind', 'text'],
  ['unit', 'text'],
  ['unit_price_minor', 'bigint'],
  ['app_id', 'uuid'],
  ['operation_id', 'uuid'],
  ['created_at', 'timestamptz'],
] as const;

@Injectable()
export class PgProductRepository extends ProductRepository {
  rowFor(p: NewProduct): RowInsert {
    return {
      table: 'products',
      columns: COLUMNS,
      values: [p.organizationId, p.id, p.environment, p.code, p.name, p.description, p.kind, p.unit, p.unit_price_minor, p.appId, p.operationId, p.createdAt],
      // the only unique constraint a new random id can hit is (organization_id, environment, code)
      onUniqueViolation: () => new ProductCodeTakenError(),
    };
  }
}
