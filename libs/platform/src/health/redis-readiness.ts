import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { type ReadinessCheck, withTimeout } from './readiness-check.js';

/**
 * Pings Redis over a connection of its own. The offline queue is off, so a ping while Redis is down
 * fails at once instead of waiting; ioredis keeps reconnecting in the background.
 */
@Injectable()
export class RedisReadiness implements ReadinessCheck, OnApplicationShutdown {
  readonly dependency = 'redis';
  private readonly logger = new Logger(RedisReadiness.name);
  private readonly redis: Redis;
  private reachable = true;

  constructor(redisUrl: string) {
    this.redis = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectionName: 'readiness',
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    this.redis.on('error', (error: Error) => this.markUnreachable(error));
    this.redis.on('ready', () => this.markReachable());
  }

  probe(): Promise<void> {
    return withTimeout(this.redis.ping(), 2_000, this.dependency);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private markUnreachable(error: Error): void {
    if (this.reachable) this.logger.warn(`Redis unreachable: ${error.message}`);
    this.reachable = false;
  }

  private markReachable(): void {
    if (!this.reachable) this.logger.log('Redis reachable again');
    this.reachable = true;
  }
}
