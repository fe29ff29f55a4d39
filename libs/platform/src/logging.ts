import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { assignRequestId } from './request-id.js';

/** Request headers that carry credentials: logged with their values replaced. */
const CREDENTIAL_REQUEST_HEADERS = [
  'authorization',
  'authorisation',
  'cookie',
  'x-svc-digest',
  'x-svc-otp',
  'x-svc-nonce',
];
const CREDENTIAL_RESPONSE_HEADERS = ['set-cookie'];
/** A failed query's bound values and the database's detail line carry the data written (documents, names). */
const ERROR_DATA_FIELDS = ['parameters', 'detail'];
const REDACTED = '[redacted]';

type Fields = Record<string, unknown>;

/** `fields` with the values of `names` replaced where present; a copy only when something is replaced. */
function redacted<T extends Fields | undefined>(fields: T, names: readonly string[]): T {
  let copy: Fields | undefined;
  for (const name of names) {
    if (fields?.[name] === undefined) continue;
    copy ??= { ...fields };
    copy[name] = REDACTED;
  }
  return (copy ?? fields) as T;
}

/** Query parameters whose values are credentials (the token of a customer's signing link). */
const SECRET_QUERY_VALUES = /([?&]token=)[^&#]*/gi;

/** The URL as logged: the values of credential query parameters replaced. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_QUERY_VALUES, '$1[redacted]');
}

/*
 * Credentials and written data are replaced by serializers, which pino-http runs after the standard ones (so
 * they get plain copies, whose headers object is still the request's own, hence copied before a change).
 * Serializers cost a few microseconds per request where pino's path redaction cloned every logged object.
 */
const LOG_SERIALIZERS = {
  req: (request: Fields & { url?: string; query?: Fields; headers?: Fields }) => ({
    ...request,
    ...(request.url !== undefined && { url: loggableUrl(request.url) }),
    query: redacted(request.query, ['token']),
    headers: redacted(request.headers, CREDENTIAL_REQUEST_HEADERS),
  }),
  res: (response: Fields & { headers?: Fields }) => ({
    ...response,
    headers: redacted(response.headers, CREDENTIAL_RESPONSE_HEADERS),
  }),
  // The standard serializer leaves anything but an error as it is.
  err: (error: unknown) => {
    if (typeof error !== 'object' || error === null) return error;
    const { driverError } = error as { driverError?: unknown };
    const fields = redacted(error as Fields, ERROR_DATA_FIELDS);
    return typeof driverError === 'object' && driverError !== null
      ? { ...fields, driverError: redacted(driverError as Fields, ERROR_DATA_FIELDS) }
      : fields;
  },
};

export interface LoggingSettings {
  service: string;
  level: string;
}

/** The request logger's settings: one line per request with its request id, credentials replaced. */
export function requestLogOptions(settings: LoggingSettings): Options {
  return {
    level: settings.level,
    base: { service: settings.service },
    genReqId: assignRequestId,
    serializers: LOG_SERIALIZERS,
    customLogLevel: (_request, response, error) => {
      if (error || response.statusCode >= 500) return 'error';
      return response.statusCode >= 400 ? 'warn' : 'info';
    },
    autoLogging: { ignore: (request) => request.url?.startsWith('/health/') ?? false },
  };
}

/** JSON lines on stdout, one per request, and the Nest logger routed into them. */
export function loggingModule(settings: LoggingSettings): DynamicModule {
  return LoggerModule.forRoot({
    // nestjs-pino's default route object ({/*splat}, ALL) is not matched on Fastify; this form is on both.
    forRoutes: ['{*splat}'],
    pinoHttp: requestLogOptions(settings),
  });
}
