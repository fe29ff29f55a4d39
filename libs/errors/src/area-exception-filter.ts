import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from './domain-error.js';
import { ErrorCode, errorCodeOfStatus, httpStatusOf } from './error-code.js';

/** What the caller did wrong, in area-neutral form. */
export interface ClientFault {
  status: number;
  code: ErrorCode;
  message: string;
  details: readonly string[];
  headers: Readonly<Record<string, string>>;
}

/** Express/body-parser/http-errors style error: `status` plus `expose` for client errors. */
interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  message?: unknown;
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON',
  'entity.too.large': 'The request body is too large',
  'encoding.unsupported': 'The request body has an unsupported content encoding',
  'charset.unsupported': 'The request body has an unsupported charset',
};

/**
 * Classifies anything thrown while handling a request. Client faults keep their meaning;
 * everything else is a server fault, answered with a plain HTML page and logged with its stack.
 */
export function classifyClientFault(exception: unknown, request: Request): ClientFault | undefined {
  if (exception instanceof DomainError) {
    return {
      status: httpStatusOf(exception.code),
      code: exception.code,
      message: exception.message,
      details: exception.details,
      headers: exception.headers,
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

function frameworkMessage(exception: unknown, status: number, request: Request): string {
  if (status === 404 && exception instanceof HttpException && exception.message.startsWith('Cannot ')) {
    return `No resource at ${request.method} ${request.path}`;
  }
  // Nest wraps body-parser errors in an HttpException and keeps the original as `cause`.
  const original = exception instanceof HttpException ? exception.cause : exception;
  const type = (original as HttpLikeError | undefined)?.type;
  if (typeof type === 'string' && FRAMEWORK_MESSAGES[type]) return FRAMEWORK_MESSAGES[type];
  return exception instanceof Error ? exception.message : 'The request could not be processed';
}

export function requestIdOf(request: Request): string {
  const id = (request as Request & { id?: unknown }).id;
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The per-area part: how a client fault is written into the response body. */
export type ClientFaultRenderer = (fault: ClientFault) => unknown;

/**
 * Maps every exception to the area's error shape. Areas differ only in the client-fault body;
 * server faults and unknown routes are handled alike.
 */
@Catch()
export class AreaExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(private readonly renderClientFault: ClientFaultRenderer) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    if (response.headersSent) {
      this.logger.error({ err: exception }, 'Error after the response was sent');
      response.end();
      return;
    }
    const fault = classifyClientFault(exception, request);
    if (fault) {
      response.set(fault.headers).status(fault.status).json(this.renderClientFault(fault));
      return;
    }
    const status = exception instanceof HttpException && exception.getStatus() === 503 ? 503 : 500;
    this.logger.error({ err: exception }, `Server fault on ${request.method} ${request.path}`);
    response
      .status(status)
      .type('html')
      .send(serverFaultPage(status, requestIdOf(request)));
  }
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

export const createApiExceptionFilter = () => new AreaExceptionFilter(apiErrorBody);
export const createMeldungenExceptionFilter = () => new AreaExceptionFilter(meldungenBody);
