import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { classifyClientFault } from '@broker/errors';
import { context as otelContext, trace } from '@opentelemetry/api';
import { nameHttpRoute, recordFailure } from '@broker/telemetry';
import { Observable } from 'rxjs';

interface RoutedRequest {
  method: string;
  url: string;
  route?: { path?: string };
  routeOptions?: { url?: string };
}

/** The matched route as the framework names it: Express's `route.path`, Fastify's `routeOptions.url`. */
function routeOf(request: RoutedRequest): string | undefined {
  return request.route?.path ?? request.routeOptions?.url;
}

/**
 * Whether an error the handler threw is a failure of the service: what the area's exception filter answers with a
 * 5xx (a server fault, an overload refusal), not a refusal of the client's request (a 4xx).
 */
function failsTheService(error: unknown, request: { method: string; url: string }): boolean {
  const fault = classifyClientFault(error, {
    method: request.method,
    path: request.url.split('?', 1)[0] ?? '',
  });
  return !fault || fault.status >= 500;
}

/**
 * A span per Nest handler (`<Controller>.<handler>`, with the attributes OpenTelemetry's NestJS instrumentation
 * gives), a child of the HTTP server span, whose name it completes with the route (`GET /api/v1/...`).
 * Hand-made because that instrumentation supports Nest up to 11 and cannot patch Nest 12's ES modules.
 * Subscribes inside the span's context, so that the handler and everything it awaits (queries, Redis, queues)
 * runs in it. Registered only while tracing is on; none for a request that is not sampled.
 */
export class HandlerSpans implements NestInterceptor {
  private readonly tracer = trace.getTracer('@broker/platform');

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'http') return next.handle();
    const controller = execution.getClass().name;
    const handler = execution.getHandler().name;
    const request = execution.switchToHttp().getRequest<RoutedRequest>();
    const route = routeOf(request);
    if (route) nameHttpRoute(route);
    // A request the sampler left out records nothing: no span of its own either.
    if (!trace.getActiveSpan()?.isRecording()) return next.handle();
    const span = this.tracer.startSpan(`${controller}.${handler}`, {
      attributes: {
        'nestjs.type': 'handler',
        'nestjs.controller': controller,
        'nestjs.callback': handler,
        ...(route && { 'http.route': route }),
      },
    });
    const spanContext = trace.setSpan(otelContext.active(), span);
    return new Observable((subscriber) => {
      const subscription = otelContext.with(spanContext, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            if (failsTheService(error, request)) recordFailure(span, error);
            span.end();
            subscriber.error(error);
          },
          complete: () => {
            span.end();
            subscriber.complete();
          },
        }),
      );
      return () => {
        subscription.unsubscribe();
        if (span.isRecording()) span.end();
      };
    });
  }
}
