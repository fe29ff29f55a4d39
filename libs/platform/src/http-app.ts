import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { HttpException, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  classifyClientFault,
  type ClientFaultRenderer,
  DomainError,
  serverFaultPage,
  jsonValueProblem,
} from '@broker/errors';
import { tracingEnabled } from '@broker/telemetry';
import { HandlerSpans } from './handler-spans.js';
import { NestLogger, ProcessLogger } from './logging.js';
import { guardBodyMediaTypes } from './media-type.guard.js';
import { instrumentHttpApp, ProcessMetrics } from './metrics.js';
import { AREA_ERROR_BODY } from './platform-modules.js';
import { createOpenApiDocument, type OpenApiSettings } from './openapi.js';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id.js';
import { DEFAULT_BODY_IDLE_MS, guardRequestBodies, type LargestBody } from './request-bodies.js';

/**
 * Which HTTP server a service runs on. Express is the default; a service whose throughput matters (area B)
 * runs on Fastify. The shared libraries (errors, guards, health, logging, OpenAPI) work on both.
 */
export type HttpPlatform = 'express' | 'fastify';

export interface HttpAppSettings {
  platform?: HttpPlatform;
  /** Largest JSON body accepted in bytes; 1 MiB unless set. */
  jsonLimitBytes?: number;
  /**
   * Serve the app's OpenAPI description (generated on first request) at `path`, without authentication; an app
   * serving several interfaces gives one document per interface.
   */
  openApi?: OpenApiDocumentSettings | OpenApiDocumentSettings[];
  /**
   * Express only: the URL (path and query) a request is routed by, given the one it arrived with; for another
   * spelling of paths the app serves (area C's interface version `1.0` for `v1`).
   */
  rewriteUrl?: (url: string) => string;
  /**
   * Express only: the largest body a request may send, by its method and URL (undefined: the JSON limit or the
   * route's own). A request whose Content-Length is larger is refused with 413 before a byte of its body is read,
   * one sent with `Expect: 100-continue` gets that 413 instead of `100 Continue`, and a chunked body gets it the
   * moment it passes the limit; the connection is closed after the answer (see `guardRequestBodies`).
   */
  largestBody?: LargestBody;
  /** Express only: how long a request body may stop arriving before the request is refused with 408 (30 s). */
  bodyIdleMs?: number;
  /**
   * Express only: how long a request may take to arrive whole, its body included (Node's `requestTimeout`, 300 s
   * unless set). An app taking large uploads over slow lines sets more.
   */
  requestTimeoutMs?: number;
  /**
   * Express only: middleware of the app's own before its routes (after the request log and the body-size check,
   * before the body is parsed), e.g. pages and sessions that are no API operation.
   */
  beforeRoutes?: (app: INestApplication) => void;
}

export type OpenApiDocumentSettings = OpenApiSettings & { path: string };

const DEFAULT_JSON_LIMIT_BYTES = 1024 * 1024;

/**
 * Creates a Nest HTTP app with the platform's conventions, initialised but not yet listening (tests use it
 * as is; `app.init()` again is harmless).
 */
export async function createHttpApp(
  rootModule: object,
  settings: HttpAppSettings = {},
): Promise<INestApplication> {
  const app =
    settings.platform === 'fastify'
      ? await createFastifyApp(rootModule, settings)
      : await createExpressApp(rootModule, settings);
  app.useLogger(new NestLogger(app.get(ProcessLogger).root));
  if (tracingEnabled()) app.useGlobalInterceptors(new HandlerSpans());
  for (const document of [settings.openApi ?? []].flat()) serveOpenApi(app, document);
  guardBodyMediaTypes(app);
  await app.init();
  // Fastify serves requests handed to its server (supertest does that) only once it is ready.
  if (settings.platform === 'fastify')
    await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  return app;
}

/**
 * JSON is UTF-8: a body with other bytes is a 400, not text with replacement characters stored as sent. The error
 * carries what both body-parser and Fastify pass on (status, type) and the exception filter names.
 */
function invalidUtf8(body: Buffer): Error | undefined {
  if (isUtf8(body)) return undefined;
  return Object.assign(new Error('The request body is not valid UTF-8'), {
    status: 400,
    statusCode: 400,
    expose: true,
    type: 'entity.encoding.invalid',
  });
}

/**
 * Fastify refuses a `__proto__` or `constructor.prototype` key as invalid JSON; for JSON that is valid otherwise the
 * refusal names the key, as the validation pipe of the other areas does.
 */
function reservedKeyRefusal(body: Buffer): DomainError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  try {
    const problem = jsonValueProblem(value);
    return problem ? DomainError.validation([problem]) : undefined;
  } catch (error) {
    return error instanceof DomainError ? error : undefined;
  }
}

/** body-parser's `verify` hook. */
function refuseInvalidUtf8(_request: IncomingMessage, _response: unknown, body: Buffer): void {
  const error = invalidUtf8(body);
  if (error) throw error;
}

async function createExpressApp(rootModule: object, settings: HttpAppSettings): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(rootModule, {
    bufferLogs: true,
    bodyParser: false,
  });
  // First, so that every request (the metrics scrape, and those the body parser refuses with 400 or 413) gets its
  // request id, is logged and counted.
  app.use(app.get(ProcessLogger).requests);
  guardRequestBodies(app, {
    largestBody: settings.largestBody,
    bodyIdleMs: settings.bodyIdleMs ?? DEFAULT_BODY_IDLE_MS,
    renderClientFault: app.get<ClientFaultRenderer>(AREA_ERROR_BODY),
  });
  if (settings.requestTimeoutMs !== undefined) app.getHttpServer().requestTimeout = settings.requestTimeoutMs;
  const { rewriteUrl } = settings;
  if (rewriteUrl)
    app.use((request: IncomingMessage, _response: unknown, next: () => void) => {
      request.url = rewriteUrl(request.url ?? '/');
      next();
    });
  settings.beforeRoutes?.(app);
  instrumentHttpApp(app, 'express');
  // Not useBodyParser: it takes no `verify`.
  app.use(
    express.json({ limit: settings.jsonLimitBytes ?? DEFAULT_JSON_LIMIT_BYTES, verify: refuseInvalidUtf8 }),
  );
  app.disable('x-powered-by');
  app.set('etag', false);
  return app;
}

async function createFastifyApp(rootModule: object, settings: HttpAppSettings): Promise<INestApplication> {
  // Set once the app exists (it needs the app's logger and error body; no request arrives before). Fastify calls it
  // before any hook.
  let refuseUnroutable: FrameworkErrorHandler = (_error, _request, reply) => void reply.code(400).send('');
  const adapter = new FastifyAdapter({
    bodyLimit: settings.jsonLimitBytes ?? DEFAULT_JSON_LIMIT_BYTES,
    genReqId: requestIdFrom,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
      refuseUnroutable(error, request, reply),
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, { bufferLogs: true });
  // Fastify names the request (the platform's request id); the request is answered with the id and handed to
  // pino-http, which keeps that id. Fastify's own logger stays off: pino-http logs.
  const logRequest = app.get(ProcessLogger).requests;
  const label = (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    logRequest(Object.assign(request.raw, { id: request.id, query: request.query }), reply.raw);
  };
  adapter.getInstance().addHook('onRequest', (request, reply, done) => {
    label(request, reply);
    done();
  });
  refuseUnroutable = unroutableRequestHandler(
    app.get<ClientFaultRenderer>(AREA_ERROR_BODY),
    label,
    app.get(ProcessMetrics),
  );
  instrumentHttpApp(app, 'fastify');
  const fastify = adapter.getInstance();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  // Registered before init, so Nest does not add its own JSON parser.
  adapter.useBodyParser(
    'application/json',
    false,
    { bodyLimit: fastify.initialConfig.bodyLimit },
    (request, body, done) => {
      const error = invalidUtf8(body);
      // Fastify's own JSON parser (empty body, proto poisoning, syntax errors); it reads a Buffer as well.
      if (error) done(error, undefined);
      else
        void parseJson(request, body as unknown as string, (parseError, value) =>
          done(parseError && (reservedKeyRefusal(body) ?? parseError), value),
        );
    },
  );
  return app;
}

type FrameworkErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/**
 * A request Fastify refuses before routing it (a path that is not valid percent-encoding) gets its request id, its
 * log line, the area's error body and its count in the metrics (no hook sees it), as any other refused request.
 */
function unroutableRequestHandler(
  renderClientFault: ClientFaultRenderer,
  label: (request: FastifyRequest, reply: FastifyReply) => void,
  metrics: ProcessMetrics,
): FrameworkErrorHandler {
  return (error, request, reply) => {
    label(request, reply);
    reply.raw.once('finish', () =>
      metrics.observeRequest(request.method, undefined, reply.statusCode, reply.elapsedTime / 1000),
    );
    const exception = new HttpException(error.message, error.statusCode ?? 500, { cause: error });
    const fault = classifyClientFault(exception, {
      method: request.method,
      path: request.url.split('?', 1)[0] ?? '',
    });
    if (!fault) {
      void reply.code(500).type('text/html; charset=utf-8').send(serverFaultPage(500, request.id));
      return;
    }
    void reply.code(fault.status).send(renderClientFault(fault));
  };
}

function serveOpenApi(app: INestApplication, settings: OpenApiDocumentSettings): void {
  let document: object | undefined;
  const adapter = app.getHttpAdapter();
  adapter.get(settings.path, (_request: unknown, response: unknown) => {
    document ??= createOpenApiDocument(app, settings);
    adapter.reply(response, document, 200);
  });
}
