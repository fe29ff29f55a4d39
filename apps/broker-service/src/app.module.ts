import { type DynamicModule, Module } from '@nestjs/common';
import { inventoryEntities } from '@broker/inventory';
import { createMeldungenExceptionFilter } from '@broker/errors';
import { PlatformModule } from '@broker/platform';
import type { BrokerConfig } from './config.js';

/** Area C: the employee service and the broker service, under /service/{tenant}/... */
@Module({})
export class AppModule {
  static forRoot(config: BrokerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          service: 'broker-service',
          logLevel: config.LOG_LEVEL,
          databaseUrl: config.DATABASE_URL,
          entities: inventoryEntities,
          redisUrl: config.REDIS_URL,
          errorFilter: createMeldungenExceptionFilter(),
        }),
      ],
    };
  }
}
