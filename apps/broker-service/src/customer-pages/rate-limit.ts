import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ClientAddresses } from '@broker/platform';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { DomainError, ErrorCode } from '@broker/errors';
import type { CustomerPage } from './page-paths.js';

export interface RateLimit {
  requests: number;
  windowSeconds: number;
}

/** Requests per key in fixed windows, counted in Redis so that every instance of the service shares them. */
export class RedisRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** Counts a request: the seconds until its window ends when it is over the limit, else 0. */
  async hit(key: string, limit: RateLimit): Promise<number> {
    const redisKey = `${this.keyPrefix}${key}`;
    const results = await this.redis
      .multi()
      .set(redisKey, 0, 'EX', limit.windowSeconds, 'NX')
      .incr(redisKey)
      .pttl(redisKey)
      .exec();
    const failed = results?.find(([error]) => error !== null);
    if (!results || failed) throw failed?.[0] ?? new Error('Rate limit transaction was discarded');
    const [count, remainingMs] = [Number(results[1][1]), Number(results[2][1])];
    return count > limit.requests ? Math.max(1, Math.ceil(remainingMs / 1000)) : 0;
  }
}

/** Each customer page's limit per client address. */
export class CustomerPageLimits {
  constructor(readonly limits: Readonly<Record<CustomerPage, RateLimit>>) {}
}

const RATE_LIMITED_PAGE = 'customer-page:rate-limited';

/** Counts the handler's requests against the page's limit (with CustomerPageRateLimitGuard). */
export const RateLimitedPage = (page: CustomerPage) => SetMetadata(RATE_LIMITED_PAGE, page);

/** A customer page's requests per client address; beyond the page's limit a 429 with Retry-After. */
@Injectable()
export class CustomerPageRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RedisRateLimiter,
    private readonly settings: CustomerPageLimits,
    private readonly addresses: ClientAddresses,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const page = this.reflector.getAllAndOverride<CustomerPage>(RATE_LIMITED_PAGE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const address = this.addresses.of(context.switchToHttp().getRequest<Request>());
    const wait = await this.limiter.hit(`${page}:${address}`, this.settings.limits[page]);
    if (wait > 0)
      throw new DomainError(ErrorCode.RateLimited, `Too many requests to the page ${page}`, [], {
        'Retry-After': String(wait),
      });
    return true;
  }
}
