import { type DynamicModule, Module } from '@nestjs/common';
import { inventoryEntities } from '@broker/inventory';
import { apiErrorBody } from '@broker/errors';
import { PlatformModule } from '@broker/platform';
import type { ImportConfig } from './config.js';
import { ImportModule } from './imports/import.module.js';

/** Area A, HTTP API process: uploads and process lists under /api/v1. */
@Module({})
export class AppModule {
  static forRoot(config: ImportConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          service: 'import-service',
          logLevel: config.LOG_LEVEL,
          databaseUrl: config.DATABASE_URL,
          databasePoolWaitMs: config.DB_POOL_WAIT_MS,
          entities: inventoryEntities,
          redisUrl: config.REDIS_URL,
          errorBody: apiErrorBody,
        }),
        ImportModule.forRoot(config),
      ],
    };
  }
}
