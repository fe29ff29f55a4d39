import { type DynamicModule, Module } from '@nestjs/common';
import { apiErrorBody } from '@broker/errors';
import { PlatformModule } from '@broker/platform';
import type { CalcConfig } from './config.js';
import { LoginModule } from './login/login.module.js';
import { PrivateLiabilityModule } from './private-liability/private-liability.module.js';

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
          databasePoolWaitMs: config.DB_POOL_WAIT_MS,
          errorBody: apiErrorBody,
        }),
        LoginModule.forRoot({
          token: {
            privateKeyPem: config.CALC_JWT_PRIVATE_KEY,
            keyId: config.CALC_JWT_KEY_ID,
            issuer: config.CALC_JWT_ISSUER,
            ttlSeconds: config.CALC_TOKEN_TTL_SECONDS,
          },
          throttle: {
            maxFailures: config.CALC_LOGIN_MAX_FAILURES,
            windowSeconds: config.CALC_LOGIN_WINDOW_SECONDS,
          },
          userStatusSeconds: config.CALC_USER_STATUS_SECONDS,
          trustedProxies: config.TRUSTED_PROXIES,
        }),
        PrivateLiabilityModule.forRoot({
          catalogPath: config.CALC_PRIVATE_LIABILITY_CATALOG,
          answerCacheEntries: config.CALC_ANSWER_CACHE_ENTRIES,
        }),
      ],
    };
  }
}
