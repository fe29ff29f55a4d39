import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { assignRequestId } from './request-id.js';

/** Headers that carry credentials: never written to a log. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.authorisation',
  'req.headers.cookie',
  'req.headers["x-svc-digest"]',
  'req.headers["x-svc-otp"]',
  'req.headers["x-svc-nonce"]',
  'res.headers["set-cookie"]',
  'req.query.token',
  // A failed query's bound values and the database's detail line carry the data written (documents, names).
  'err.parameters',
  'err.detail',
  'err.driverError.parameters',
  'err.driverError.detail',
];

/** Query parameters whose values are credentials (the token of a customer's signing link). */
const SECRET_QUERY_VALUES = /([?&]token=)[^&#]*/gi;

/** The URL as logged: the values of credential query parameters replaced. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_QUERY_VALUES, '$1[redacted]');
}

export interface LoggingSettings {
  service: string;
  level: string;
}

/** JSON lines on stdout, one per request with its request id, and the Nest logger routed into them. */
export function loggingModule(settings: LoggingSettings): DynamicModule {
  return LoggerModule.forRoot({
    // nestjs-pino's default route object ({/*splat}, ALL) is not matched on Fastify; this form is on both.
    forRoutes: ['{*splat}'],
    pinoHttp: {
      level: settings.level,
      base: { service: settings.service },
      genReqId: assignRequestId,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (request: { url?: string }) => {
          if (request.url) request.url = loggableUrl(request.url);
          return request;
        },
      },
      customLogLevel: (_request, response, error) => {
        if (error || response.statusCode >= 500) return 'error';
        return response.statusCode >= 400 ? 'warn' : 'info';
      },
      autoLogging: { ignore: (request) => request.url?.startsWith('/health/') ?? false },
    },
  });
}
