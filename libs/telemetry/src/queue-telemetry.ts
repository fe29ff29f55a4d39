import { context, type Context, SpanKind, trace } from '@opentelemetry/api';
import type { Span, Telemetry } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import { tracingEnabled } from './tracing.js';

/** A span that records nothing and leaves the context as it is. */
const UNRECORDED: Span<Context> = {
  setSpanOnContext: (ctx) => ctx,
  setAttribute: () => undefined,
  setAttributes: () => undefined,
  addEvent: () => undefined,
  recordException: () => undefined,
  end: () => undefined,
};

/**
 * BullMQ's `telemetry` option for a queue or worker: with tracing on, a job carries the trace context of whoever
 * added it (in the job's options, stored with it in Redis) and the worker processes it in a span of that trace.
 * BullMQ's housekeeping outside any trace (a worker's polling, the stalled-job checks, every few seconds) is not
 * recorded: it would start a trace of its own each time.
 */
export function queueTelemetry(): { telemetry?: Telemetry<Context> } {
  if (!tracingEnabled()) return {};
  const { tracer, contextManager } = new BullMQOtel({ tracerName: 'bullmq' });
  return {
    telemetry: {
      contextManager,
      tracer: {
        // BullMQ's SpanKind has OpenTelemetry's values.
        startSpan: (name, options?: { kind?: number }, parent?: Context) =>
          options?.kind === SpanKind.INTERNAL && !trace.getSpan(parent ?? context.active())
            ? UNRECORDED
            : tracer.startSpan(name, options, parent),
      },
    },
  };
}
