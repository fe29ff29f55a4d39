import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import { DEFAULT_DB_POOL_WAIT_MS } from '@broker/config';
import { allMigrations } from './migrations/index.js';
import { SnakeNamingStrategy } from './naming-strategy.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own entity list type
type EntityList = MixedList<Function | string | EntitySchema>;

export interface DatabaseSettings {
  url: string;
  /** Shown in pg_stat_activity, so a connection can be traced to its process. */
  applicationName: string;
  entities?: EntityList;
  poolSize?: number;
  /**
   * How long a request for a connection waits (for one of the full pool to become free, or for a new one to be
   * established) before pg-pool rejects it; DEFAULT_DB_POOL_WAIT_MS unless set. The filters answer that
   * rejection with 503 and Retry-After (`overloadRefusal` of @broker/errors).
   */
  poolWaitMs?: number;
}

/**
 * Settings of every session. JIT compilation is off: it pays off for long analytical queries, while ours are
 * short requests or set-based import passes whose estimates (rows of jsonb_array_elements, unnest) are inflated
 * far beyond what they read; measured, it compiled for 0.5-1.4 s in each of the import's largest statements.
 */
const SESSION_OPTIONS = '-c jit=off';

/** The one DataSource configuration used by the apps, the migration CLI and the tests. */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    applicationName: settings.applicationName,
    entities: settings.entities ?? [],
    migrations: allMigrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    poolSize: settings.poolSize ?? 10,
    extra: {
      connectionTimeoutMillis: settings.poolWaitMs ?? DEFAULT_DB_POOL_WAIT_MS,
      options: SESSION_OPTIONS,
    },
  };
}

export function createDataSource(settings: DatabaseSettings): DataSource {
  return new DataSource(dataSourceOptions(settings));
}
