import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdminConfig } from '../config.js';
import type { NextFunction, Request, Response } from 'express';
import { CONSOLE_PATH, ConsoleGate, isBelow, QUEUE_BOARD_PATH } from './console-gate.js';
import { assetFiles, consoleAssets, consoleSecurityHeaders } from './console-pages.js';
import { ConsoleSessions } from './console-sessions.js';
import { PlatformQueueClients } from '../operations/platform-queue-clients.js';
import { QueueBoard } from './queue-board.js';
import { OpenIdLogin } from './openid-login.js';

type ConsoleConfig = Pick<
  AdminConfig,
  | 'ADMIN_CONSOLE_OIDC_ISSUER'
  | 'ADMIN_CONSOLE_CLIENT_ID'
  | 'ADMIN_CONSOLE_CLIENT_SECRET'
  | 'ADMIN_CONSOLE_BASE_URL'
  | 'ADMIN_SESSION_SECRET'
  | 'ADMIN_CONSOLE_OIDC_RESOURCE'
  | 'ADMIN_OAUTH_AUDIENCE'
  | 'ADMIN_CONSOLE_SESSION_HOURS'
  | 'ADMIN_CONSOLE_IDLE_MINUTES'
>;

/**
 * The operator console at /admin/console/ (beyond the spec), when its variables are set (the configuration allows
 * all or none): its security headers, its built scripts and styles, and its gate (login, session, API, page, and
 * the queue board when the platform's queues are there: REDIS_URL).
 */
export function mountConsole(app: INestApplication, config: ConsoleConfig): void {
  const { ADMIN_CONSOLE_OIDC_ISSUER, ADMIN_CONSOLE_CLIENT_ID, ADMIN_CONSOLE_CLIENT_SECRET } = config;
  const { ADMIN_CONSOLE_BASE_URL, ADMIN_SESSION_SECRET } = config;
  if (
    !ADMIN_CONSOLE_OIDC_ISSUER ||
    !ADMIN_CONSOLE_CLIENT_ID ||
    !ADMIN_CONSOLE_CLIENT_SECRET ||
    !ADMIN_CONSOLE_BASE_URL ||
    !ADMIN_SESSION_SECRET
  )
    return;
  const baseUrl = new URL(ADMIN_CONSOLE_BASE_URL.replace(/\/+$/, ''));
  const assets = consoleAssets();
  const consoleHeaders = consoleSecurityHeaders(baseUrl);
  app.use(QUEUE_BOARD_PATH, consoleSecurityHeaders(baseUrl, 'queue-board'));
  app.use(CONSOLE_PATH, (request: Request, response: Response, next: NextFunction) =>
    isBelow(request.originalUrl.split('?')[0], QUEUE_BOARD_PATH)
      ? next()
      : consoleHeaders(request, response, next),
  );
  app.use(`${CONSOLE_PATH}/assets`, assetFiles(assets.directory));
  const queues = app.get<PlatformQueueClients, PlatformQueueClients | null>(PlatformQueueClients, {
    strict: false,
  });
  ConsoleGate.mount(app, {
    baseUrl,
    indexHtml: assets.indexHtml,
    board: queues
      ? new QueueBoard(queues.all, {
          basePath: QUEUE_BOARD_PATH,
          script: assets.boardScript && `${CONSOLE_PATH}/assets/${assets.boardScript}`,
        })
      : null,
    sessions: new ConsoleSessions(app.get(DataSource), ADMIN_SESSION_SECRET, {
      absoluteMs: config.ADMIN_CONSOLE_SESSION_HOURS * 3_600_000,
      idleMs: config.ADMIN_CONSOLE_IDLE_MINUTES * 60_000,
    }),
    login: new OpenIdLogin({
      issuer: ADMIN_CONSOLE_OIDC_ISSUER,
      clientId: ADMIN_CONSOLE_CLIENT_ID,
      clientSecret: ADMIN_CONSOLE_CLIENT_SECRET,
      redirectUri: `${baseUrl.href}/callback`,
      postLogoutRedirectUri: `${baseUrl.href}/`,
      resource: config.ADMIN_CONSOLE_OIDC_RESOURCE ?? config.ADMIN_OAUTH_AUDIENCE,
    }),
  });
}
