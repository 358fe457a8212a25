import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { generateSecretsKeyEntry, SecretBox } from '../crypto/secret-box';
import { Clock, SystemClock } from '../domain/clock';
import { DatabaseNotifications } from '../domain/database-notifications';
import { HostResolver, SystemHostResolver } from '../domain/host-resolver';
import { Scheduler, TimerScheduler } from '../domain/scheduler';
import { databaseNotifications } from './database-notifications';
import { OneStatementWrite } from './one-statement-write';
import { PgPool } from './pg-pool';
import { Sql } from './sql';
import { Transactions } from './transactions';

/**
 * The process-wide kernel both listeners share: configuration, the one pool and the data source over it
 * (created and migrated before Nest starts, so the partner and console applications use the same pool), the
 * clock and the host resolver.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(
    config: AppConfig,
    dataSource: DataSource,
    pool: PgPool,
    clock: Clock = new SystemClock(),
    secretBox?: SecretBox,
    resolver: HostResolver = new SystemHostResolver(),
  ): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DataSource, useValue: dataSource },
        // the service's pool (pg-pool.ts): Sql runs on it, TypeORM above was handed it
        { provide: PgPool, useValue: pool },
        { provide: Clock, useValue: clock },
        { provide: HostResolver, useValue: resolver },
        { provide: Scheduler, useValue: new TimerScheduler() },
        // LISTEN/NOTIFY of the store: background jobs wake on it instead of polling (issue 47)
        { provide: DatabaseNotifications, useValue: databaseNotifications(config.database, pool) },
        Transactions,
        // the key of stored secrets (CONTRACT §8); a caller without one gets a fresh throwaway key
        { provide: SecretBox, useValue: secretBox ?? SecretBox.fromSpec(generateSecretsKeyEntry(1)) },
        Sql,
        OneStatementWrite,
      ],
      exports: [APP_CONFIG, DataSource, PgPool, Clock, HostResolver, Scheduler, DatabaseNotifications, Transactions, SecretBox, Sql, OneStatementWrite],
    };
  }
}
