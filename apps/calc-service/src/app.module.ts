import { type DynamicModule, Module } from '@nestjs/common';
import { createApiExceptionFilter } from '@broker/errors';
import { PlatformModule } from '@broker/platform';
import type { CalcConfig } from './config.js';

/** Area B: the calculation service. */
@Module({})
export class AppModule {
  static forRoot(config: CalcConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          service: 'calc-service',
          logLevel: config.LOG_LEVEL,
          databaseUrl: config.DATABASE_URL,
          errorFilter: createApiExceptionFilter(),
        }),
      ],
    };
  }
}
