import { inspect } from 'node:util';
import type { LoggerService } from '@nestjs/common';
import { destination, type DestinationStream, type Level, type Logger } from 'pino';
import { type HttpLogger, type Options, pinoHttp } from 'pino-http';
import { wasRefused } from '@broker/errors';
import { isProbePath, isSecretQueryParameter, loggableUrl, REDACTED } from '@broker/telemetry';
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
/** A failed query's bound values and the database's detail line carry the data written (documents, names). */
const ERROR_DATA_FIELDS = new Set(['parameters', 'detail']);

type Fields = Record<string, unknown>;

const isCredentialHeader = (name: string) => CREDENTIAL_REQUEST_HEADERS.has(name);
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
    customLogLevel: (request, response, error) => {
      if (error) return 'error';
      if (wasRefused(response)) return 'warn';
      if (response.statusCode >= 500) return 'error';
      if (response.statusCode >= 400) return 'warn';
      return isProbePath(request.url ?? '') ? 'silent' : 'info';
    },
    // pino-http gives every 5xx an error of its own ("failed with status code 503"); a refusal is none.
    customErrorMessage: (_request, response) =>
      wasRefused(response) ? 'request refused' : 'request errored',
    customErrorObject: (_request, response, _error, fields: Fields) =>
      wasRefused(response) ? { ...fields, err: undefined } : fields,
  };
}

/** Unwritten log output kept while stdout's reader lags; beyond it lines are dropped. */
const MAX_UNWRITTEN_LOG_BYTES = 16 * 1024 * 1024;

/**
 * A process's logging: JSON lines on stdout, one per HTTP request (`requests`, attached to the HTTP server by
 * createHttpApp) and whatever the process logs itself (`root`, behind Nest's Logger). Lines are written
 * asynchronously, so a log reader that stalls never stalls the service (synchronous writes blocked every request,
 * health probes included, once the pipe was full); a clean shutdown writes what is left (`close`).
 *
 * A line logged while a request is handled names its request id itself. With tracing on, OpenTelemetry's pino
 * instrumentation adds the active span's `trace_id` and `span_id` to every line (its context rides on
 * AsyncLocalStorage, which measured free on the pinned Node 24: bench/README.md, "Calculation").
 */
export class ProcessLogger {
  readonly requests: HttpLogger;
  /** The stream onto stdout; none when the lines go elsewhere (tests). */
  private readonly stdout?: ReturnType<typeof destination>;

  constructor(settings: LoggingSettings, output?: DestinationStream) {
    this.stdout = output
      ? undefined
      : destination({ dest: 1, sync: false, maxLength: MAX_UNWRITTEN_LOG_BYTES });
    this.requests = pinoHttp(requestLogOptions(settings), output ?? this.stdout);
  }

  get root(): Logger {
    return this.requests.logger;
  }

  /**
   * Writes every line still waiting and closes the stream, the last step of a clean shutdown: pino's own flush at
   * exit skips a write still in flight (and with it the lines a stalled reader held up).
   */
  async close(): Promise<void> {
    const stdout = this.stdout;
    if (!stdout) return;
    // A line logged while the stream closes would throw; there is nothing left to log by now.
    this.root.level = 'silent';
    await new Promise<void>((resolve) => {
      stdout.once('close', resolve).once('error', resolve);
      stdout.end();
    });
  }

  /**
   * Gives up the lines still waiting, for a shutdown that ran out of time: with a stalled reader pino's flush at
   * exit would wait for it for ever.
   */
  abandon(): void {
    this.stdout?.destroy();
  }
}

/** Levels by Nest's method names. */
const NEST_LEVELS = {
  verbose: 'trace',
  debug: 'debug',
  log: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'fatal',
} as const satisfies Record<string, Level>;

/** A stack trace as Nest's own exception handlers pass it: `error(message, stack, context)`. */
const STACK_TRACE = /\n\s*at /;

/**
 * Nest's Logger onto pino, with nestjs-pino's conventions: the context (the Logger's name, which Nest passes last)
 * as `context`, an object or Error first as the line's fields or `err`, the message and its format arguments
 * after it.
 */
export class NestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  verbose(message: unknown, ...parameters: unknown[]): void {
    this.write(NEST_LEVELS.verbose, message, parameters);
  }

  debug(message: unknown, ...parameters: unknown[]): void {
    this.write(NEST_LEVELS.debug, message, parameters);
  }

  log(message: unknown, ...parameters: unknown[]): void {
    this.write(NEST_LEVELS.log, message, parameters);
  }

  warn(message: unknown, ...parameters: unknown[]): void {
    this.write(NEST_LEVELS.warn, message, parameters);
  }

  error(message: unknown, ...parameters: unknown[]): void {
    this.write(NEST_LEVELS.error, message, parameters);
  }

  fatal(message: unknown, ...parameters: unknown[]): void {
    this.write(NEST_LEVELS.fatal, message, parameters);
  }

  private write(level: Level, message: unknown, parameters: unknown[]): void {
    const fields: Fields = {};
    const formatArguments = parameters.slice(0, -1);
    if (parameters.length > 0) fields.context = parameters.at(-1);
    if (typeof message === 'object' && message !== null) {
      const [text, ...rest] = formatArguments;
      Object.assign(fields, message instanceof Error ? { err: message } : message);
      this.logger[level](fields, typeof text === 'string' ? text : inspectedText(text), ...rest);
    } else if (level === 'error' && isStackTrace(formatArguments)) {
      fields.err = Object.assign(new Error(String(message)), { stack: formatArguments[0] });
      this.logger.error(fields);
    } else {
      this.logger[level](fields, String(message), ...formatArguments);
    }
  }
}

/** A message Nest was given as something other than text, readable in the line. */
function inspectedText(text: unknown): string | undefined {
  return text === undefined ? undefined : inspect(text);
}

function isStackTrace(formatArguments: unknown[]): formatArguments is [string] {
  return (
    formatArguments.length === 1 &&
    typeof formatArguments[0] === 'string' &&
    STACK_TRACE.test(formatArguments[0])
  );
}
