import type { IncomingMessage, RequestOptions } from 'node:http';
import { type Attributes, context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType, W3CTraceContextPropagator } from '@opentelemetry/core';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ATTR_URL_FULL, ATTR_URL_QUERY } from '@opentelemetry/semantic-conventions';
import { isProbePath } from './probe-paths.js';
import { loggableUrl, REDACTED } from './redaction.js';

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
        startIncomingSpanHook: (request: IncomingMessage) => incomingQuery(request.url ?? ''),
        startOutgoingSpanHook: (options: RequestOptions) => outgoingUrl(() => requestUrl(options)),
      }),
      // The route handlers; each middleware's span (request id, log, body parser) would only add noise.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Outside a traced request or job (BullMQ's polling, the sweepers) queries and Redis commands make no trace.
      new PgInstrumentation({ requireParentSpan: true }),
      // The command alone: keys and arguments carry request nonces and job data.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      new UndiciInstrumentation({
        requireParentforSpans: true,
        startSpanHook: (request) => outgoingUrl(() => new URL(request.path, request.origin)),
      }),
      // trace_id and span_id on every JSON log line written inside a span; the lines stay on stdout only.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
    // W3C trace context only: no baggage, which would carry a caller's entries into Redis and on to third parties.
    textMapPropagator: new W3CTraceContextPropagator(),
    // Prometheus keeps the metrics (/metrics) and stdout the logs: only traces go to the collector.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return sdk;
}

/** A request's query as traced: credential values replaced, as in the request log (a signing link's token). */
function incomingQuery(url: string): Attributes {
  const traced = loggableUrl(url);
  const query = traced.indexOf('?');
  return query < 0 ? {} : { [ATTR_URL_QUERY]: traced.slice(query + 1) };
}

/**
 * An outgoing call's URL as traced: without the values of its query, which a receiver's URL (a webhook
 * endpoint's) may use for its own secret.
 */
function outgoingUrl(url: () => URL): Attributes {
  try {
    const traced = url();
    if (!traced.search) return {};
    for (const name of new Set(traced.searchParams.keys())) traced.searchParams.set(name, REDACTED);
    return { [ATTR_URL_FULL]: traced.toString(), [ATTR_URL_QUERY]: traced.search };
  } catch {
    return { [ATTR_URL_FULL]: REDACTED };
  }
}

/** The URL of a request made with node:http (webhook deliveries). */
function requestUrl(options: RequestOptions): URL {
  const host = options.hostname ?? options.host ?? 'localhost';
  const authority = host.includes(':') ? `[${host}]` : host;
  const port = options.port ? `:${options.port}` : '';
  return new URL(options.path ?? '/', `${options.protocol ?? 'http:'}//${authority}${port}`);
}

/** Names the active HTTP server span after the matched route (`GET /api/v1/processes/:processId`). */
export function setHttpRoute(route: string): void {
  const rpc = getRPCMetadata(context.active());
  if (rpc?.type === RPCType.HTTP) rpc.route = route;
}
