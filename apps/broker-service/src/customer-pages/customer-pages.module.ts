import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ClientAddresses } from '@broker/platform';
import { Redis } from 'ioredis';
import { PasswordPageController, PasswordPageFilter } from '../password-page/password-page.controller.js';
import { PasswordRepository } from '../password-page/password.repository.js';
import { PasswordService } from '../password-page/password.service.js';
import { SigningPageController, SigningPageFilter } from '../signing/signing-page.controller.js';
import { SigningRepository } from '../signing/signing.repository.js';
import { SigningService } from '../signing/signing.service.js';
import { LinkFormCsrf } from './csrf.js';
import { FormBodyInterceptor } from './form-body.interceptor.js';
import { CustomerPageAssets } from './page-assets.js';
import type { CustomerPage } from './page-paths.js';
import {
  CustomerPageLimits,
  CustomerPageRateLimitGuard,
  type RateLimit,
  RedisRateLimiter,
} from './rate-limit.js';

export interface CustomerPagesSettings {
  redisUrl: string;
  /** Prefix of the rate-limit keys in Redis. */
  redisPrefix: string;
  /** The service's secret the CSRF key is derived from. */
  secret: Buffer;
  /** Requests per client address and window, for each page. */
  rateLimits: Record<CustomerPage, RateLimit>;
  trustedProxies: string[];
  /** Cookies only over HTTPS: true when customers reach the pages by https. */
  secureCookies: boolean;
}

const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

/**
 * The pages customers open from the links in their messages: the signing page of the broker mandate
 * (/service/{tenant}/unterschrift) and the password page (/service/{tenant}/passwort-setzen).
 */
@Module({})
export class CustomerPagesModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_REDIS) private readonly redis: Redis) {}

  static forRoot(settings: CustomerPagesSettings): DynamicModule {
    return {
      module: CustomerPagesModule,
      controllers: [SigningPageController, PasswordPageController],
      providers: [
        {
          provide: RATE_LIMIT_REDIS,
          useFactory: () => new Redis(settings.redisUrl, { maxRetriesPerRequest: 2 }),
        },
        {
          provide: RedisRateLimiter,
          useFactory: (redis: Redis) => new RedisRateLimiter(redis, `${settings.redisPrefix}page-rate:`),
          inject: [RATE_LIMIT_REDIS],
        },
        { provide: CustomerPageLimits, useValue: new CustomerPageLimits(settings.rateLimits) },
        { provide: ClientAddresses, useValue: new ClientAddresses(settings.trustedProxies) },
        { provide: LinkFormCsrf, useValue: new LinkFormCsrf(settings.secret, settings.secureCookies) },
        CustomerPageRateLimitGuard,
        FormBodyInterceptor,
        SigningPageFilter,
        PasswordPageFilter,
        CustomerPageAssets,
        SigningRepository,
        SigningService,
        PasswordRepository,
        PasswordService,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit();
  }
}
