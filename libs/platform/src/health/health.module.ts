import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { PostgresReadiness } from './postgres-readiness.js';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness-check.js';
import { RedisReadiness } from './redis-readiness.js';

export interface HealthSettings {
  /** Set when the process uses Redis: readiness then also pings it. */
  redisUrl?: string;
}

/** GET /health/live and GET /health/ready. PostgreSQL is always checked (needs TypeOrmModule). */
@Module({})
export class HealthModule {
  static forRoot(settings: HealthSettings): DynamicModule {
    const redis: Provider[] = settings.redisUrl
      ? [{ provide: RedisReadiness, useFactory: () => new RedisReadiness(settings.redisUrl!) }]
      : [];
    const checks: Provider = {
      provide: READINESS_CHECKS,
      useFactory: (...checks: ReadinessCheck[]) => checks,
      inject: [PostgresReadiness, ...(settings.redisUrl ? [RedisReadiness] : [])],
    };
    return {
      module: HealthModule,
      // Global for RedisReadiness: a request that needs Redis (an upload) may ask it before it starts.
      global: true,
      controllers: [HealthController],
      providers: [PostgresReadiness, ...redis, checks],
      exports: settings.redisUrl ? [RedisReadiness] : [],
    };
  }
}
