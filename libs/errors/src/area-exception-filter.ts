import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  type HttpServer,
  Logger,
} from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { DomainError } from './domain-error.js';
import { ErrorCode, errorCodeOfStatus, httpStatusOf } from './error-code.js';
import { clientLeft, markRefused, wasAnsweredEarly } from './response-marks.js';
import { overloadRefusal } from './overload.js';

/**
 * What the caller did wrong, or that the service refuses the request under overload (503), in area-neutral
 * form.
 */
export interface ClientFault {
  status: number;
  code: ErrorCode;
  message: string;
  details: readonly string[];
  headers: Readonly<Record<string, string>>;
}

/** The request as the error mapping needs it, whatever the HTTP platform. */
export interface FaultyRequest {
  method: string;
  /** Without the query string. */
  path: string;
}

/**
 * Framework errors: body-parser/http-errors (Express) carry `status`, `expose` and `type`; Fastify's carry
 * `statusCode` and an `FST_...` code (Nest wraps both in an HttpException with the original as `cause`).
 */
interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
  message?: unknown;
}

const NOT_JSON = 'The request body is not valid JSON';
const TOO_LARGE = 'The request body is too large';
const NOT_PERCENT_ENCODED = 'The path is not valid percent-encoding';

/** Our messages for the framework's client errors, by body-parser `type` or Fastify `code`. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  'entity.parse.failed': NOT_JSON,
  'entity.too.large': TOO_LARGE,
  'encoding.unsupported': 'The request body has an unsupported content encoding',
  'charset.unsupported': 'The request body has an unsupported charset',
  'entity.encoding.invalid': 'The request body is not valid UTF-8',
  FST_ERR_CTP_INVALID_JSON_BODY: NOT_JSON,
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but its Content-Type says JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: TOO_LARGE,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request body has an unsupported Content-Type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length',
  FST_ERR_BAD_URL: NOT_PERCENT_ENCODED,
};

/**
 * Classifies anything thrown while handling a request. Client faults keep their meaning, and a request that
 * waited too long for a database connection is refused under overload (`overloadRefusal`); everything else is a
 * server fault, answered with a plain HTML page and logged with its stack.
 */
export function classifyClientFault(exception: unknown, request: FaultyRequest): ClientFault | undefined {
  const domainError = exception instanceof DomainError ? exception : overloadRefusal(exception);
  if (domainError) {
    return {
      status: httpStatusOf(domainError.code),
      code: domainError.code,
      message: domainError.message,
      details: domainError.details,
      headers: domainError.headers,
    };
  }
  const status = statusOf(exception);
  if (status === undefined || status < 400 || status >= 500) return undefined;
  const code = errorCodeOfStatus(status);
  return { status, code, message: frameworkMessage(exception, status, request), details: [], headers: {} };
}

function statusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  const candidate = exception as HttpLikeError | null;
  if (typeof candidate !== 'object' || candidate === null || candidate.expose !== true) return undefined;
  const status = candidate.status ?? candidate.statusCode;
  return typeof status === 'number' ? status : undefined;
}

function frameworkMessage(exception: unknown, status: number, request: FaultyRequest): string {
  if (status === 404 && exception instanceof HttpException && exception.message.startsWith('Cannot ')) {
    return `No resource at ${request.method} ${request.path}`;
  }
  const original = (exception instanceof HttpException ? exception.cause : exception) as
    HttpLikeError | undefined;
  for (const key of [original?.type, original?.code]) {
    if (typeof key === 'string' && FRAMEWORK_MESSAGES[key]) return FRAMEWORK_MESSAGES[key];
  }
  // Express's router decoding a path parameter.
  if (original instanceof URIError) return NOT_PERCENT_ENCODED;
  return exception instanceof Error ? exception.message : 'The request could not be processed';
}

/** The id pino-http gave the request; on Fastify it sits on the raw Node request. */
export function requestIdOf(request: { id?: unknown; raw?: { id?: unknown } }): string {
  const id = request.raw ? request.raw.id : request.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : 'unknown';
}

export function serverFaultPage(status: number, requestId: string): string {
  const title = status === 503 ? 'Service Unavailable' : 'Internal Server Error';
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${status} ${title}</title></head>`,
    `<body><h1>${status} ${title}</h1>`,
    '<p>The server could not complete the request. The problem has been logged.</p>',
    `<p>Request ID: <code>${escapeHtml(requestId)}</code></p>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** Text as HTML shows it literally (the five characters HTML gives a meaning). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The per-area part: how a client fault is written into the response body. */
export type ClientFaultRenderer = (fault: ClientFault) => unknown;

/**
 * Maps every exception to the area's error shape. Areas differ only in the client-fault body;
 * server faults and unknown routes are handled alike. Writes through Nest's HTTP adapter, so it serves
 * Express and Fastify alike.
 */
@Catch()
export class AreaExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(
    private readonly renderClientFault: ClientFaultRenderer,
    private readonly adapterHost: HttpAdapterHost,
    /** Told of every request refused under overload (the process's metrics count them). */
    private readonly onOverload: () => void = () => undefined,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const adapter: HttpServer = this.adapterHost.httpAdapter;
    const request = host.switchToHttp().getRequest<object>();
    const response = host.switchToHttp().getResponse<object>();
    const reqId = requestIdOf(request);
    if (adapter.isHeadersSent(response)) {
      // The reader of a body answered before it was read failing on the closed request: nothing more to say.
      if (wasAnsweredEarly(response)) return;
      this.logger.error({ err: exception, reqId }, 'Error after the response was sent');
      adapter.end(response);
      return;
    }
    const method = adapter.getRequestMethod?.(request) ?? 'UNKNOWN';
    const path = (adapter.getRequestUrl?.(request) ?? '').split('?')[0] ?? '';
    if (clientLeft(request)) {
      const reason = exception instanceof Error ? exception.message : String(exception);
      this.logger.log({ reqId, reason }, `The client left during ${method} ${path}`);
      return;
    }
    const fault = classifyClientFault(exception, { method, path });
    if (fault) {
      // The request's own line says the rest, as a warning (a refusal, not a fault).
      if (isRefusal(fault)) markRefused(response);
      if (fault.code === ErrorCode.Overloaded) this.onOverload();
      for (const [name, value] of Object.entries(fault.headers)) adapter.setHeader(response, name, value);
      adapter.reply(response, this.renderClientFault(fault), fault.status);
      return;
    }
    const status = exception instanceof HttpException && exception.getStatus() === 503 ? 503 : 500;
    this.logger.error({ err: exception, reqId }, `Server fault on ${method} ${path}`);
    adapter.setHeader(response, 'Content-Type', 'text/html; charset=utf-8');
    adapter.reply(response, serverFaultPage(status, reqId), status);
  }
}

/** A 503 with Retry-After: the request is refused for now (overload, a dependency out of reach), no fault of the code. */
export function isRefusal(fault: ClientFault): boolean {
  return fault.status === 503 && fault.headers['Retry-After'] !== undefined;
}

/** Areas A and B: `{name, message, code, status}`. */
export function apiErrorBody(fault: ClientFault): ApiErrorBody {
  return { name: ErrorCode[fault.code], message: fault.message, code: fault.code, status: fault.status };
}

/** Area C: `{Meldungen: [...]}`, one message per problem. */
export function meldungenBody(fault: ClientFault): MeldungenBody {
  return { Meldungen: fault.details.length > 0 ? [...fault.details] : [fault.message] };
}

export interface ApiErrorBody {
  name: string;
  message: string;
  code: number;
  status: number;
}

export interface MeldungenBody {
  Meldungen: string[];
}
