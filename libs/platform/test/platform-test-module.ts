import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { DEFAULT_DB_POOL_WAIT_MS } from '@broker/config';
import { apiErrorBody } from '@broker/errors';
import { PlatformModule, type PlatformSettings } from '../src/platform-modules.js';

/** The platform (areas A and B's error body, logs off unless set) with the controllers a spec exercises. */
export function platformTestModule(
  settings: Pick<PlatformSettings, 'service' | 'databaseUrl'> & Partial<PlatformSettings>,
  controllers: Type[],
): DynamicModule {
  @Module({})
  class PlatformTestModule {}
  return {
    module: PlatformTestModule,
    imports: [
      PlatformModule.forRoot({
        logLevel: 'silent',
        errorBody: apiErrorBody,
        databasePoolWaitMs: DEFAULT_DB_POOL_WAIT_MS,
        ...settings,
      }),
    ],
    controllers,
  };
}
