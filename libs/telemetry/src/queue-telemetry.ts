import { context, type Context, SpanKind, trace } from '@opentelemetry/api';
import type { Span, Telemetry } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import { tracingEnabled } from './tracing.js';

/**
 * BullMQ's spans that start no trace of their own: its housekeeping, and jobs added outside any trace (a dispatcher
 * re-adding the same pending deliveries every second, a sweeper). Such a job's processing is then a trace of its own.
 */
const UNTRACED_WITHOUT_PARENT = new Set<number | undefined>([SpanKind.INTERNAL, SpanKind.PRODUCER]);

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
 * BullMQ's housekeeping and additions outside any trace (a worker's polling and stalled-job checks every few
 * seconds, a dispatcher's) are not recorded: each would start a trace of its own.
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
          UNTRACED_WITHOUT_PARENT.has(options?.kind) && !trace.getSpan(parent ?? context.active())
            ? UNRECORDED
            : tracer.startSpan(name, options, parent),
      },
    },
  };
}
