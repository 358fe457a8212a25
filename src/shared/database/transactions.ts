import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Transaction } from '../domain/transaction';
import { translateDatabaseError } from './database-failure';

type RollbackHook = (manager: EntityManager) => Promise<void>;
const afterRollbackHooks = new WeakMap<EntityManager, RollbackHook[]>();

/**
 * Registers work that must be committed even though the transaction of `manager` rolls back (e.g. a
 * wrong one-time code counted towards a lockout, CONTRACT §8). It runs right after the rollback, on
 * the same connection and in its own transaction, before the error reaches the caller — on the
 * embedded store nothing else can run in between. False when `manager` is not a transaction of
 * Transactions.run.
 */
export function afterRollback(manager: EntityManager, hook: RollbackHook): boolean {
  const hooks = afterRollbackHooks.get(manager);
  if (!hooks) return false;
  hooks.push(hook);
  return true;
}

/** Infrastructure's view of a Transaction: the EntityManager Transactions.run opened it with. */
export function managerOf(tx: Transaction): EntityManager {
  return tx as EntityManager;
}

/**
 * One use case, one database transaction (STYLE.md): every query of the work goes through the
 * EntityManager it is handed — on the embedded store a query outside it would wait for itself.
 */
@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction; what it is handed is opaque above infrastructure (managerOf unwraps it). */
  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // READ COMMITTED, the default of both stores (naming it would cost one more round trip)
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
    } catch (err) {
      throw translateDatabaseError(err);
    }
    const hooks: RollbackHook[] = [];
    afterRollbackHooks.set(runner.manager, hooks);
    try {
      await runner.startTransaction();
      try {
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (err) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        for (const hook of hooks.splice(0)) {
          await runner.startTransaction();
          try {
            await hook(runner.manager);
            await runner.commitTransaction();
          } catch {
            if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
          }
        }
        throw err;
      }
    } catch (err) {
      // a database failure of BEGIN, the work or its COMMIT, as its domain error (database-failure.ts)
      throw translateDatabaseError(err);
    } finally {
      afterRollbackHooks.delete(runner.manager);
      await runner.release();
    }
  }
}
