import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * One use case, one database transaction (STYLE.md): every query of the work goes through the
 * EntityManager it is handed — on the embedded store a query outside it would wait for itself.
 */
@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    // READ COMMITTED, the default of both stores (naming it would cost one more round trip)
    return this.dataSource.transaction(work);
  }
}
