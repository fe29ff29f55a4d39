import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';

/** Wrong one-time passwords of an API client, counted to bound guessing. */
export interface OtpFailures {
  /** Seconds until OTP proofs of the client are checked again; 0 when they are checked now. */
  blockedFor(apiClientId: string): Promise<number>;
  /** Counts a wrong OTP of the client. */
  record(apiClientId: string): Promise<void>;
}

export const OTP_FAILURES = Symbol('OTP_FAILURES');

/**
 * At most `limit` wrong OTPs per API client in a window of `windowSeconds` from the first (default 10 an hour):
 * with three accepted codes among 10^8 (one step of tolerance each way), 240 guesses a day have a chance of 1 in
 * 140,000. Counted in Redis (rate-limiter-flexible), so every process of the service shares the count.
 */
export class RedisOtpFailures implements OtpFailures {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly limit = 10,
    windowSeconds = 3_600,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: limit,
      duration: windowSeconds,
    });
  }

  async blockedFor(apiClientId: string): Promise<number> {
    const state = await this.limiter.get(apiClientId);
    if (!state || state.consumedPoints < this.limit) return 0;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  }

  async record(apiClientId: string): Promise<void> {
    // Beyond the limit the count stays where it is; a rejection says only that.
    await this.limiter.penalty(apiClientId, 1);
  }
}
