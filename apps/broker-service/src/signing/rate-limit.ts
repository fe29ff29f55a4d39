import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ClientAddresses } from '@broker/platform';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { DomainError, ErrorCode } from '@broker/errors';

/** Requests per key in fixed windows, counted in Redis so that every instance of the service shares them. */
export class RedisRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts a request: the seconds until its window ends when it is over the limit, else 0. */
  async hit(key: string): Promise<number> {
    const redisKey = `${this.keyPrefix}${key}`;
    const results = await this.redis
      .multi()
      .set(redisKey, 0, 'PX', this.windowMs, 'NX')
      .incr(redisKey)
      .pttl(redisKey)
      .exec();
    const failed = results?.find(([error]) => error !== null);
    if (!results || failed) throw failed?.[0] ?? new Error('Rate limit transaction was discarded');
    const [count, remainingMs] = [Number(results[1][1]), Number(results[2][1])];
    return count > this.limit ? Math.max(1, Math.ceil(remainingMs / 1000)) : 0;
  }
}

/** The signing page's requests per client address; beyond the limit a 429 with Retry-After. */
@Injectable()
export class SigningRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RedisRateLimiter,
    private readonly addresses: ClientAddresses,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const wait = await this.limiter.hit(this.addresses.of(context.switchToHttp().getRequest<Request>()));
    if (wait > 0)
      throw new DomainError(ErrorCode.RateLimited, 'Too many signing page requests', [], {
        'Retry-After': String(wait),
      });
    return true;
  }
}
