import { type DynamicModule, Module } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { APP_FILTER, APP_GUARD, APP_PIPE, HttpAdapterHost } from '@nestjs/core';
import type { DatabaseSettings } from '@broker/db';
import {
  AreaExceptionFilter,
  type ClientFaultRenderer,
  createValidationPipe,
  NulFreePathGuard,
} from '@broker/errors';
import { ConnectionDrainer } from './connection-drainer.js';
import { databaseModule } from './database.js';
import { HealthModule } from './health/health.module.js';
import { ProcessLogger } from './logging.js';
import { MetricsModule, ProcessMetrics } from './metrics.js';

export interface PlatformSettings {
  /** Process name in logs and in pg_stat_activity. */
  service: string;
  logLevel: string;
  databaseUrl: string;
  /** How long a request waits for a free database connection before it is refused with 503 (DB_POOL_WAIT_MS). */
  databasePoolWaitMs: number;
  /** Connections of the process's pool; 10 unless set. */
  databasePoolSize?: number;
  entities?: DatabaseSettings['entities'];
  /** Set when the process uses Redis; readiness then checks it too. */
  redisUrl?: string;
  /** The area's error body (`apiErrorBody` or `meldungenBody` of @broker/errors). */
  errorBody: ClientFaultRenderer;
  /** Where log lines go: stdout unless set (tests read them). */
  logOutput?: DestinationStream;
}

/**
 * What every process is built on: JSON logging with request ids, the database, the health endpoints,
 * Prometheus metrics, the area's error mapping, the validation pipe and the NUL check of path parameters. Tests that import an app module get
 * all of it.
 */
/** The area's client-error body (`PlatformSettings.errorBody`), for errors answered outside Nest's filters. */
export const AREA_ERROR_BODY = Symbol('AREA_ERROR_BODY');

@Module({})
export class PlatformModule {
  static forRoot(settings: PlatformSettings): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        databaseModule({
          url: settings.databaseUrl,
          applicationName: settings.service,
          entities: settings.entities,
          poolWaitMs: settings.databasePoolWaitMs,
          poolSize: settings.databasePoolSize,
        }),
        HealthModule.forRoot({ redisUrl: settings.redisUrl }),
        MetricsModule.forRoot(settings.service),
      ],
      providers: [
        {
          provide: APP_FILTER,
          useFactory: (host: HttpAdapterHost, metrics: ProcessMetrics) =>
            new AreaExceptionFilter(settings.errorBody, host, () => metrics.countOverloadRefusal()),
          inject: [HttpAdapterHost, ProcessMetrics],
        },
        { provide: APP_GUARD, useClass: NulFreePathGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        {
          provide: ProcessLogger,
          useFactory: () =>
            new ProcessLogger({ service: settings.service, level: settings.logLevel }, settings.logOutput),
        },
        { provide: AREA_ERROR_BODY, useValue: settings.errorBody },
        ConnectionDrainer,
      ],
      exports: [ProcessLogger, AREA_ERROR_BODY],
    };
  }
}
