import { type DynamicModule, Module } from '@nestjs/common';
import { inventoryEntities } from '@broker/inventory';
import { createMeldungenExceptionFilter } from '@broker/errors';
import { PlatformModule } from '@broker/platform';
import { SvcAuthModule } from './auth/svc-auth.module.js';
import type { BrokerConfig } from './config.js';
import { EmployeeModule } from './employee/employee.module.js';

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
        SvcAuthModule.forRoot({
          redisUrl: config.REDIS_URL,
          redisPrefix: config.BROKER_REDIS_PREFIX,
          apiKeyEncryptionKey: config.API_KEY_ENCRYPTION_KEY,
        }),
        EmployeeModule,
      ],
    };
  }
}
