import { type DynamicModule, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import {
  API_CLIENT_DIRECTORY,
  type ApiClientDirectory,
  ApiKeyCipher,
  HeaderGroupGuard,
  HeaderGroupVerifier,
  InProcessCallers,
  NONCE_STORE,
  type NonceStore,
  OTP_FAILURES,
  type OtpFailures,
  type OtpRefusal,
  RedisNonceStore,
  RedisOtpFailures,
} from '@broker/auth';
import { ProcessMetrics } from '@broker/platform';
import { SqlApiClientDirectory } from './sql-api-client-directory.js';

export interface SvcAuthSettings {
  redisUrl: string;
  /** Prefix of the nonce keys in Redis (tests give each file its own). */
  redisPrefix: string;
  apiKeyEncryptionKey: Buffer;
}

const NONCE_REDIS = Symbol('NONCE_REDIS');

const logger = new Logger('HeaderGroup');

/** A refused OTP proof in the metrics and, without the OTP, in the log. */
function reportOtpRefusal(metrics: ProcessMetrics, { apiId, reason }: OtpRefusal): void {
  metrics.countAuthRefusal('otp', reason);
  logger.warn(
    `OTP proof of API id ${apiId} refused: ${reason === 'wrong' ? 'wrong one-time password' : 'too many wrong ones'}`,
  );
}

/** Area C authentication: the header group, with API clients from the inventory and nonces in Redis. */
@Module({})
export class SvcAuthModule implements OnApplicationShutdown {
  constructor(@Inject(NONCE_REDIS) private readonly redis: Redis) {}

  static forRoot(settings: SvcAuthSettings): DynamicModule {
    return {
      module: SvcAuthModule,
      global: true,
      providers: [
        { provide: ApiKeyCipher, useValue: new ApiKeyCipher(settings.apiKeyEncryptionKey) },
        { provide: API_CLIENT_DIRECTORY, useClass: SqlApiClientDirectory },
        {
          provide: NONCE_REDIS,
          // Nonces claimed by concurrent requests in the same tick go to Redis in one write.
          useFactory: () =>
            new Redis(settings.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true }),
        },
        {
          provide: NONCE_STORE,
          useFactory: (redis: Redis) => new RedisNonceStore(redis, `${settings.redisPrefix}nonce:`),
          inject: [NONCE_REDIS],
        },
        {
          provide: OTP_FAILURES,
          useFactory: (redis: Redis) => new RedisOtpFailures(redis, `${settings.redisPrefix}otp-failures:`),
          inject: [NONCE_REDIS],
        },
        {
          provide: HeaderGroupVerifier,
          useFactory: (
            directory: ApiClientDirectory,
            nonces: NonceStore,
            otpFailures: OtpFailures,
            metrics: ProcessMetrics,
          ) =>
            new HeaderGroupVerifier(directory, nonces, otpFailures, (refusal) =>
              reportOtpRefusal(metrics, refusal),
            ),
          inject: [API_CLIENT_DIRECTORY, NONCE_STORE, OTP_FAILURES, ProcessMetrics],
        },
        InProcessCallers,
        HeaderGroupGuard,
      ],
      exports: [HeaderGroupVerifier, HeaderGroupGuard, InProcessCallers, ApiKeyCipher],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit();
  }
}
