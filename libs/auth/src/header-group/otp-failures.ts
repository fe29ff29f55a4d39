import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** How many one-time passwords of an API client are checked: bounded, so that guessing one is hopeless. */
export interface OtpFailures {
  /**
   * Reserves one check for the client before its OTP is compared: 0 when it may be checked now, else the seconds
   * until checks are allowed again. Atomic, so concurrent guesses cannot all pass a count read before any of them.
   */
  reserve(apiClientId: string): Promise<number>;
  /** Gives the reservation back: the OTP was right, so it is no failure. */
  release(apiClientId: string): Promise<void>;
}

export const OTP_FAILURES = Symbol('OTP_FAILURES');

/**
 * At most `limit` wrong OTPs per API client in a window of `windowSeconds` from the first (default 10 an hour):
 * with three accepted codes among 10^8 (one step of tolerance each way), 240 guesses a day have a chance of 1 in
 * 140,000. Counted in Redis (rate-limiter-flexible), so every process of the service shares the count.
 */
export class RedisOtpFailures implements OtpFailures {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: Redis, keyPrefix: string, limit = 10, windowSeconds = 3_600) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: limit,
      duration: windowSeconds,
    });
  }

  async reserve(apiClientId: string): Promise<number> {
    try {
      await this.limiter.consume(apiClientId, 1);
      return 0;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    }
  }

  async release(apiClientId: string): Promise<void> {
    await this.limiter.reward(apiClientId, 1);
  }
}
