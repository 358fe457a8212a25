import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NewProduct } from '../domain/product';
import { ProductRepository, ResourceConflictError } from '../domain/product.repository';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class TypeOrmProductRepository extends ProductRepository {
  async insert(m: EntityManager, p: NewProduct): Promise<void> {
    try {
      await m.query(
        `INSERT INTO products
           (organization_id, id, environment, code, name, description, kind, unit, unit_price_minor, app_id, operation_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [p.organizationId, p.id, p.environment, p.code, p.name, p.description, p.kind, p.unit, p.unit_price_minor, p.appId, p.operationId, p.createdAt],
      );
    } catch (err) {
      const e = err as { code?: string; driverError?: { code?: string } };
      // the only unique constraint a new random id can hit is (organization_id, environment, code)
      if ((e.driverError?.code ?? e.code) === UNIQUE_VIOLATION) throw new ResourceConflictError();
      throw err;
    }
  }
}
