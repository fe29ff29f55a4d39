import type { IncomingMessage } from 'node:http';
import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { isProbePath } from './probe-paths.js';

/**
 * The OpenTelemetry Node SDK with the instrumentations of the platform's modules; loaded (by startTracing) only
 * when tracing is on. The SDK takes the exporter's endpoint, protocol, headers, sampler and batching from the
 * standard OTEL_* variables itself.
 */
export function startSdk(serviceName: string): NodeSDK {
  const sdk = new NodeSDK({
    serviceName,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => isProbePath(request.url ?? ''),
      }),
      // The route handlers; each middleware's span (request id, log, body parser) would only add noise.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Outside a traced request or job (BullMQ's polling, the sweepers) queries and Redis commands make no trace.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // trace_id and span_id on every JSON log line written inside a span; the lines stay on stdout only.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
    // Prometheus keeps the metrics (/metrics) and stdout the logs: only traces go to the collector.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return sdk;
}

/** Names the active HTTP server span after the matched route (`GET /api/v1/processes/:processId`). */
export function setHttpRoute(route: string): void {
  const rpc = getRPCMetadata(context.active());
  if (rpc?.type === RPCType.HTTP) rpc.route = route;
}
