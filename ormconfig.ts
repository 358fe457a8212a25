import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/shared/config/app-config';
import { dataSourceOptions } from './src/shared/database/data-source';
import { PgPool } from './src/shared/database/pg-pool';

/**
 * The data source for TypeORM's CLI (e.g. `npx typeorm -d dist/ormconfig.js migration:show`), from
 * the same configuration as the service, over a pool of its own (pg-pool.ts), closed with it. The
 * service itself migrates through `npm run migrate` and at start-up.
 */
const pool = PgPool.open(loadConfig().database);
const dataSource = new DataSource(dataSourceOptions(pool));
const destroy = dataSource.destroy.bind(dataSource);
dataSource.destroy = async () => {
  await destroy();
  await pool.end();
};
export default dataSource;
