import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ClientAddresses } from '@broker/platform';
import { Redis } from 'ioredis';
import { SigningCsrf } from './csrf.js';
import { FormBodyInterceptor } from './form-body.interceptor.js';
import { SigningPageFilter } from './page-response.js';
import { RedisRateLimiter, SigningRateLimitGuard } from './rate-limit.js';
import { SigningAssets } from './signing-assets.js';
import { SigningPageController } from './signing-page.controller.js';
import { SigningRepository } from './signing.repository.js';
import { SigningService } from './signing.service.js';

export interface SigningSettings {
  redisUrl: string;
  /** Prefix of the rate-limit keys in Redis. */
  redisPrefix: string;
  /** The service's secret the CSRF key is derived from. */
  secret: Buffer;
  rateLimit: { requests: number; windowSeconds: number };
  trustedProxies: string[];
  /** Cookies only over HTTPS: true when customers reach the page by https. */
  secureCookies: boolean;
}

const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

/** The customer-facing signing page of the broker mandate (/service/{tenant}/unterschrift). */
@Module({})
export class SigningModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_REDIS) private readonly redis: Redis) {}

  static forRoot(settings: SigningSettings): DynamicModule {
    return {
      module: SigningModule,
      controllers: [SigningPageController],
      providers: [
        {
          provide: RATE_LIMIT_REDIS,
          useFactory: () => new Redis(settings.redisUrl, { maxRetriesPerRequest: 2 }),
        },
        {
          provide: RedisRateLimiter,
          useFactory: (redis: Redis) =>
            new RedisRateLimiter(
              redis,
              `${settings.redisPrefix}signing-rate:`,
              settings.rateLimit.requests,
              settings.rateLimit.windowSeconds * 1000,
            ),
          inject: [RATE_LIMIT_REDIS],
        },
        { provide: ClientAddresses, useValue: new ClientAddresses(settings.trustedProxies) },
        { provide: SigningCsrf, useValue: new SigningCsrf(settings.secret, settings.secureCookies) },
        SigningRateLimitGuard,
        FormBodyInterceptor,
        SigningPageFilter,
        SigningAssets,
        SigningRepository,
        SigningService,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit();
  }
}
