import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/shared/config/app-config';
import { dataSourceOptions } from './src/shared/database/data-source';

/**
 * The data source for TypeORM's CLI (e.g. `npx typeorm -d dist/ormconfig.js migration:show`), from
 * the same configuration as the service. The service itself migrates through `npm run migrate` and at
 * start-up.
 */
export default new DataSource(dataSourceOptions(loadConfig().database));
