import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { loadTracingSettings } from './tracing-settings.js';

/** Where every process serves its Prometheus metrics (scraped from inside the cluster, not through the gateway). */
export const METRICS_PATH = '/metrics';

/** The orchestrator's probes and Prometheus' scrape, every few seconds: neither traced nor logged. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/health/live', '/health/ready', METRICS_PATH]);

export const isProbePath = (url: string) => PROBE_PATHS.has(url.split('?', 1)[0] ?? url);

/** How long a clean stop waits for the last spans to be exported. */
const FINAL_EXPORT_MS = 5_000;

let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry Node SDK for this process when the environment asks for traces (loadTracingSettings).
 * Must run before the instrumented modules (http, express, pg, ioredis, pino, undici) are first loaded: each
 * entry point imports its `tracing.ts` first. The SDK takes the exporter's endpoint, protocol, headers, sampler and
 * batching from the standard OTEL_* variables itself. Without an endpoint nothing is registered: no span, no
 * context propagation, no log field.
 */
export function startTracing(defaultServiceName: string): void {
  const settings = loadTracingSettings(defaultServiceName);
  if (!settings.enabled || sdk) return;
  sdk = new NodeSDK({
    serviceName: settings.serviceName,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => isProbePath(request.url ?? ''),
      }),
      new ExpressInstrumentation(),
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
}

/** Whether this process records and exports spans. */
export function tracingEnabled(): boolean {
  return sdk !== undefined;
}

/** Exports the spans still waiting and stops tracing; the last step of a clean shutdown. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  if (!running) return;
  // A collector that does not answer must not hold the stop up to the exporter's own timeout (30 s).
  await Promise.race([running.shutdown(), delay(FINAL_EXPORT_MS, undefined, { ref: false })]);
}
