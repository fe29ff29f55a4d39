import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, type DatabaseSettings } from '@broker/db';

/** The app's TypeORM connection, from the one DataSource configuration in libs/db. */
export function databaseModule(settings: DatabaseSettings): DynamicModule {
  return TypeOrmModule.forRoot({
    ...dataSourceOptions(settings),
    // Boot fails fast with a readable error instead of retrying for minutes; the orchestrator restarts it.
    retryAttempts: 0,
  });
}
