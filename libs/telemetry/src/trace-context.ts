import {
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
} from '@opentelemetry/api';
import { tracingEnabled } from './tracing.js';

const tracer = () => trace.getTracer('@broker/platform');

/**
 * The active span as a W3C `traceparent`, to be kept with what outlives the request or job (an import process)
 * and linked to later; none when tracing is off or the span is not sampled.
 */
export function activeTraceParent(): string | undefined {
  const active = trace.getSpanContext(context.active());
  if (!active || !(active.traceFlags & TraceFlags.SAMPLED)) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Adds the active trace context (`traceparent`, `tracestate`) to outgoing headers; nothing when tracing is off. */
export function injectTraceContext(headers: Record<string, string>): void {
  propagation.inject(context.active(), headers);
}

/**
 * `callback` bound to the active trace context: it runs in it wherever it is called from (an event of a connection
 * that many requests share).
 */
export function inActiveContext<Args extends unknown[], Result>(
  callback: (...args: Args) => Result,
): (...args: Args) => Result {
  return context.bind(context.active(), callback);
}

/**
 * Runs `work` outside any trace: for what outlives the request that happens to create it (a shared connection, whose
 * events would otherwise run in that request's trace for ever).
 */
export function outsideAnyTrace<Result>(work: () => Result): Result {
  return context.with(ROOT_CONTEXT, work);
}

/** Marks `span` failed with `error`. */
export function recordFailure(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

function linksTo(traceParent: string | null | undefined): Link[] {
  if (!traceParent) return [];
  const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }));
  return linked ? [{ context: linked }] : [];
}

/** Links the active span (an event stream's request) to the trace of `traceParent` (an import process). */
export function linkActiveSpan(traceParent: string | null | undefined): void {
  const span = trace.getActiveSpan();
  for (const link of linksTo(traceParent)) span?.addLink(link);
}

/**
 * Runs `work` in a span of its own, a child of the active one and linked to the trace of `traceParent` when
 * given; a failure is recorded on it. With tracing off it only runs `work`.
 */
export function inSpan<Result>(
  name: string,
  attributes: Attributes,
  work: () => Promise<Result>,
  traceParent?: string | null,
): Promise<Result> {
  if (!tracingEnabled()) return work();
  return tracer().startActiveSpan(name, { attributes, links: linksTo(traceParent) }, async (span: Span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
