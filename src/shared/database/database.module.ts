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
import { Sql } from './sql';
import { Transactions } from './transactions';

/**
 * The process-wide kernel both listeners share: configuration, the one data source (created and
 * migrated before Nest starts, so the partner and console applications use the same pool), the
 * clock and the host resolver.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(
    config: AppConfig,
    dataSource: DataSource,
    clock: Clock = new SystemClock(),
    secretBox?: SecretBox,
    resolver: HostResolver = new SystemHostResolver(),
  ): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DataSource, useValue: dataSource },
        { provide: Clock, useValue: clock },
        { provide: HostResolver, useValue: resolver },
        { provide: Scheduler, useValue: new TimerScheduler() },
        // LISTEN/NOTIFY of the store: background jobs wake on it instead of polling (issue 47)
        { provide: DatabaseNotifications, useValue: databaseNotifications(config.database, dataSource) },
        Transactions,
        // the key of stored secrets (CONTRACT §8); a caller without one gets a fresh throwaway key
        { provide: SecretBox, useValue: secretBox ?? SecretBox.fromSpec(generateSecretsKeyEntry(1)) },
        Sql,
        OneStatementWrite,
      ],
      exports: [APP_CONFIG, DataSource, Clock, HostResolver, Scheduler, DatabaseNotifications, Transactions, SecretBox, Sql, OneStatementWrite],
    };
  }
}
