import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { assignRequestId } from './request-id.js';

/** Request headers that carry credentials: logged with their values replaced. */
const CREDENTIAL_REQUEST_HEADERS = new Set([
  'authorization',
  'authorisation',
  'cookie',
  'x-svc-digest',
  'x-svc-otp',
  'x-svc-nonce',
]);
/** Query parameters whose values are credentials (the token of a customer's signing link), in lower case. */
const SECRET_QUERY_PARAMETERS = new Set(['token']);
/** A failed query's bound values and the database's detail line carry the data written (documents, names). */
const ERROR_DATA_FIELDS = new Set(['parameters', 'detail']);
const REDACTED = '[redacted]';

type Fields = Record<string, unknown>;

const isCredentialHeader = (name: string) => CREDENTIAL_REQUEST_HEADERS.has(name);
const isSecretQueryParameter = (name: string) => SECRET_QUERY_PARAMETERS.has(name.toLowerCase());
const isSetCookie = (name: string) => name === 'set-cookie';
const isErrorData = (name: string) => ERROR_DATA_FIELDS.has(name);

/** `fields` with the values of the fields `secret` names replaced; a copy only when one is replaced. */
function redacted<T>(fields: T, secret: (name: string) => boolean): T {
  if (typeof fields !== 'object' || fields === null) return fields;
  let copy: Fields | undefined;
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || !secret(name)) continue;
    copy = { ...(copy ?? fields), [name]: REDACTED };
  }
  return (copy ?? fields) as T;
}

/** A name=value pair of a URL's query: its separator, its name (still encoded) and its value. */
const QUERY_PARAMETER = /([?&])([^=&#]*)=([^&#]*)/g;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL as logged: the values of credential query parameters replaced (names compared decoded). */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  return (
    url.slice(0, query) +
    url
      .slice(query)
      .replace(QUERY_PARAMETER, (parameter, separator: string, name: string) =>
        isSecretQueryParameter(decodedName(name)) ? `${separator}${name}=${REDACTED}` : parameter,
      )
  );
}

/**
 * An error as logged without the data written: `parameters` and `detail` replaced in it and in the errors it
 * carries (TypeORM's driver error, the errors of an AggregateError, the cause of a Nest HttpException).
 */
function withoutWrittenData(error: unknown, depth = 3): unknown {
  if (typeof error !== 'object' || error === null || depth === 0) return error;
  const fields = redacted(error as Fields, isErrorData);
  const { driverError, aggregateErrors, options } = fields as {
    driverError?: unknown;
    aggregateErrors?: unknown;
    options?: { cause?: unknown };
  };
  const nested: Fields = {};
  if (driverError !== undefined) nested.driverError = withoutWrittenData(driverError, depth - 1);
  if (Array.isArray(aggregateErrors))
    nested.aggregateErrors = aggregateErrors.map((inner) => withoutWrittenData(inner, depth - 1));
  if (typeof options === 'object' && options !== null && options.cause !== undefined)
    nested.options = { ...options, cause: withoutWrittenData(options.cause, depth - 1) };
  return Object.keys(nested).length > 0 ? { ...fields, ...nested } : fields;
}

/*
 * Credentials and written data are replaced by serializers, which pino-http runs after the standard ones (so
 * they get plain copies, whose headers object is still the request's own, hence copied before a change).
 * Serializers cost a few microseconds per request where pino's path redaction cloned every logged object.
 */
const LOG_SERIALIZERS = {
  req: (request: Fields & { url?: string; query?: unknown; headers?: Fields }) => {
    const query = redacted(request.query, isSecretQueryParameter);
    return {
      ...request,
      ...(request.url !== undefined && { url: loggableUrl(request.url) }),
      ...(query !== request.query && { query }),
      headers: redacted(request.headers, isCredentialHeader),
    };
  },
  res: (response: Fields & { headers?: Fields }) => ({
    ...response,
    headers: redacted(response.headers, isSetCookie),
  }),
  // The standard serializer leaves anything but an error as it is.
  err: (error: unknown) => withoutWrittenData(error),
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
