import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { createOpenApiDocument, type OpenApiSettings } from './openapi.js';

export interface HttpAppSettings {
  /** Largest JSON body accepted, e.g. '1mb'. */
  jsonLimit?: string;
  /** Serve the app's OpenAPI description (generated on first request) at `path`, without authentication. */
  openApi?: OpenApiSettings & { path: string };
}

/** Creates a Nest HTTP app with the platform's conventions, not yet listening (tests use it as is). */
export async function createHttpApp(
  rootModule: object,
  settings: HttpAppSettings = {},
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(rootModule, {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.useBodyParser('json', { limit: settings.jsonLimit ?? '1mb' });
  app.disable('x-powered-by');
  app.set('etag', false);
  if (settings.openApi) serveOpenApi(app, settings.openApi);
  return app;
}

function serveOpenApi(app: NestExpressApplication, settings: OpenApiSettings & { path: string }): void {
  let document: object | undefined;
  app.getHttpAdapter().get(settings.path, (_request: unknown, response: unknown) => {
    document ??= createOpenApiDocument(app, settings);
    app.getHttpAdapter().reply(response, document, 200);
  });
}
