import { Global, Module } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

import { METRICS_PATH } from '@broker/telemetry';

export { METRICS_PATH };

/** Requests that matched no route share one label value, so unknown paths cannot grow the label set. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * The process's metrics: Node's defaults (CPU, memory, event loop lag, GC) and the HTTP requests by method,
 * route template and status. A registry of its own per application, so two apps in one process (tests) keep
 * their counts apart. Other modules add their metrics to `registry`.
 */
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to the end of its answer, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly overloadRefusals = new Counter({
    name: 'http_overload_refusals_total',
    help: 'HTTP requests refused with 503 and Retry-After: no database connection became free within DB_POOL_WAIT_MS, or no place for a search (SEARCH_QUEUE_WAIT_MS)',
    registers: [this.registry],
  });

  private readonly authRefusals = new Counter({
    name: 'auth_refusals_total',
    help: 'Credentials refused for guessing: by scheme (otp) and reason (wrong, throttled)',
    labelNames: ['scheme', 'reason'],
    registers: [this.registry],
  });

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? UNMATCHED_ROUTE, status: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
  }

  countOverloadRefusal(): void {
    this.overloadRefusals.inc();
  }

  countAuthRefusal(scheme: string, reason: string): void {
    this.authRefusals.inc({ scheme, reason });
  }
}

@Global()
@Module({})
export class MetricsModule {
  static forRoot(service: string) {
    return {
      module: MetricsModule,
      providers: [{ provide: ProcessMetrics, useValue: new ProcessMetrics(service) }],
      exports: [ProcessMetrics],
    };
  }
}

/** Counts every request of `app` (matched or not, guards and errors included) and serves METRICS_PATH. */
export function instrumentHttpApp(app: INestApplication, platform: 'express' | 'fastify'): void {
  const metrics = app.get(ProcessMetrics);
  if (platform === 'fastify') {
    (app as NestFastifyApplication)
      .getHttpAdapter()
      .getInstance()
      .addHook('onResponse', (request, reply, done) => {
        metrics.observeRequest(
          request.method,
          request.routeOptions.url,
          reply.statusCode,
          reply.elapsedTime / 1000,
        );
        done();
      });
  } else {
    (app as NestExpressApplication).use(
      (request: IncomingMessage, response: ServerResponse, next: () => void) => {
        const start = process.hrtime.bigint();
        response.on('finish', () => {
          const route = (request as IncomingMessage & { route?: { path?: string } }).route?.path;
          metrics.observeRequest(
            request.method ?? 'GET',
            route,
            response.statusCode,
            Number(process.hrtime.bigint() - start) / 1e9,
          );
        });
        next();
      },
    );
  }
  const adapter = app.getHttpAdapter();
  adapter.get(METRICS_PATH, async (_request: unknown, response: unknown) => {
    adapter.setHeader(response, 'Content-Type', metrics.registry.contentType);
    adapter.reply(response, await metrics.registry.metrics(), 200);
  });
}
