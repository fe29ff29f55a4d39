import { type INestApplication, Logger } from '@nestjs/common';
import { parse as parseCookies, serialize as serializeCookie, type SerializeOptions } from 'cookie';
import type { NextFunction, Request, Response } from 'express';
import { OAuthTokenVerifier } from '@broker/auth';
import { DomainError, ErrorCode } from '@broker/errors';
import { authenticateAdmin } from '../auth/admin-principal.js';
import type { ConsoleSession, ConsoleSessions } from './console-sessions.js';
import { consolePage } from './console-pages.js';
import type { OpenIdLogin } from './openid-login.js';
import { QueueBoard } from './queue-board.js';

export const CONSOLE_PATH = '/admin/console';
const logger = new Logger('Console');
/** The console's data: the administration API (/admin/v1) with the session's access token. */
const API_PREFIX = `${CONSOLE_PATH}/api/v1/`;
/** The queue board (bull-board), for operators. */
export const QUEUE_BOARD_PATH = `${CONSOLE_PATH}/queues`;
const SESSION_COOKIE = 'broker_console_session';
const LOGIN_COOKIE = 'broker_console_login';
const CSRF_HEADER = 'x-csrf-token';
/** An access token this close to its expiry is renewed before it is used. */
const RENEW_BEFORE_MS = 30_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The API's event streams (GET .../events): they outlive the request that opened them. */
const EVENT_STREAM_PATH = /\/events(\?|$)/;

const foreignWrite = () =>
  new DomainError(ErrorCode.Forbidden, 'A write to the console must come from the console itself');

export interface ConsoleGateSettings {
  /** The console's address as browsers reach it (ADMIN_CONSOLE_BASE_URL). */
  baseUrl: URL;
  /** The built console's page (every path of it answers this one page), null when it was not built. */
  indexHtml: string | null;
  sessions: ConsoleSessions;
  login: OpenIdLogin;
  /** The queue board; null without Redis. */
  board: QueueBoard | null;
}

type Handler = (request: Request, response: Response) => Promise<void>;

/**
 * The console's own routes before the API's: login at the provider and its callback, the session, logout, and the
 * administration API under `/admin/console/api/v1/` for the session's person: a write needs the session's CSRF token
 * and the console's origin; the request goes on to `/admin/v1/` with the session's access token, so the API's own
 * guard decides, from the token's scope and tenant, exactly as for any other caller.
 */
export class ConsoleGate {
  private readonly cookieBase: SerializeOptions;
  private readonly routes: Record<string, Handler>;
  /** The event streams each session has open (by the hash of its id), ended with the session. */
  private readonly streams = new Map<string, Set<Response>>();

  constructor(
    private readonly settings: ConsoleGateSettings,
    private readonly verifier: OAuthTokenVerifier,
  ) {
    this.cookieBase = {
      httpOnly: true,
      sameSite: 'lax',
      secure: settings.baseUrl.protocol === 'https:',
      path: CONSOLE_PATH,
    };
    this.routes = {
      [`GET ${CONSOLE_PATH}/login`]: (request, response) => this.startLogin(request, response),
      [`GET ${CONSOLE_PATH}/callback`]: (request, response) => this.finishLogin(request, response),
      [`GET ${CONSOLE_PATH}/session`]: (request, response) => this.describeSession(request, response),
      [`POST ${CONSOLE_PATH}/logout`]: (request, response) => this.logout(request, response),
    };
  }

  static mount(app: INestApplication, settings: ConsoleGateSettings): ConsoleGate {
    const gate = new ConsoleGate(settings, app.get(OAuthTokenVerifier));
    app.use((request: Request, response: Response, next: NextFunction) => {
      gate.handle(request, response, next).catch(next);
    });
    return gate;
  }

  private async handle(request: Request, response: Response, next: NextFunction): Promise<void> {
    const path = new URL(request.url, 'http://console.invalid').pathname;
    // Every answer of the console's own (refusals and redirects among them) is for this browser only.
    if (isBelow(path, CONSOLE_PATH)) response.setHeader('Cache-Control', 'no-store');
    const route = this.routes[`${request.method} ${path}`];
    if (route) return route(request, response);
    if (path.startsWith(API_PREFIX)) return this.forwardToApi(request, response, next);
    if (isBelow(path, QUEUE_BOARD_PATH)) return this.serveBoard(request, response, next);
    if (isPageRequest(request.method, path)) return this.servePage(request, response);
    next();
  }

  /**
   * The queue board, for operators: the queues hold every tenant's work, so a tenant's administrator sees none of it
   * (403). A page without a session goes to the login, its data is a 401; a write must come from the console's
   * origin, be one of the job actions the console allows (QueueBoard.isAllowedAction), and is logged.
   */
  private async serveBoard(request: Request, response: Response, next: NextFunction): Promise<void> {
    const { board } = this.settings;
    if (!board) throw new DomainError(ErrorCode.RouteNotFound, 'The queue board needs REDIS_URL');
    const isPage = request.method === 'GET' && !/\/(api|static)\//.test(request.path);
    const session = await this.sessionOf(request);
    if (!session && isPage) return response.redirect(302, this.loginPath(request.url));
    if (!session) throw new DomainError(ErrorCode.AuthenticationRequired, 'Log in to the console first');
    if (session.role !== 'operator' && isPage) {
      const home = { href: `${CONSOLE_PATH}/`, text: 'Zur Konsole' };
      const why =
        'Die Warteschlangen enthalten die Arbeit aller Mandanten; sie sind dem Betrieb der Plattform vorbehalten.';
      response
        .status(403)
        .type('html')
        .send(consolePage('Kein Zugriff', why, home));
      return;
    }
    if (session.role !== 'operator')
      throw new DomainError(ErrorCode.Forbidden, 'The queues hold every tenant’s work: operators only');
    const boardPath = request.path.slice(QUEUE_BOARD_PATH.length);
    if (!SAFE_METHODS.has(request.method)) {
      if (request.headers.origin !== this.settings.baseUrl.origin) throw foreignWrite();
      if (!QueueBoard.isAllowedAction(request.method, boardPath))
        throw new DomainError(
          ErrorCode.Forbidden,
          'The console retries, promotes and cleans jobs, nothing else',
        );
      logger.log(`Queue board: ${session.subject} ${request.method} ${boardPath}`);
    }
    const url = request.url;
    request.url = url.slice(QUEUE_BOARD_PATH.length) || '/';
    board.handle(request, response, (error?: unknown) => {
      request.url = url;
      next(error);
    });
  }

  /** The console's page, for a person with a session; else the way to the login, and back to this page. */
  private async servePage(request: Request, response: Response): Promise<void> {
    const { indexHtml } = this.settings;
    if (!indexHtml) {
      const home = { href: `${CONSOLE_PATH}/`, text: 'Erneut versuchen' };
      response
        .status(503)
        .type('html')
        .send(consolePage('Konsole nicht verfügbar', 'Die Konsole ist nicht gebaut.', home));
      return;
    }
    if (!(await this.sessionOf(request))) return response.redirect(302, this.loginPath(request.url));
    response.type('html').send(indexHtml);
  }

  /** The session of the request's cookie, its access token renewed when it is about to expire; null without one. */
  private async sessionOf(request: Request): Promise<ConsoleSession | null> {
    const id = parseCookies(request.headers.cookie ?? '')[SESSION_COOKIE];
    const session = id ? await this.settings.sessions.find(id) : null;
    if (!session || session.tokens.accessExpiresAt - Date.now() > RENEW_BEFORE_MS) return session;
    return this.settings.sessions.renewTokens(session, async (current) =>
      current.accessExpiresAt - Date.now() > RENEW_BEFORE_MS
        ? 'unchanged'
        : this.settings.login.refresh(current),
    );
  }

  /** Where a page without a session sends the browser: the login, coming back to `returnTo`. */
  private loginPath(returnTo: string): string {
    return `${CONSOLE_PATH}/login?return_to=${encodeURIComponent(returnTo)}`;
  }

  private async startLogin(request: Request, response: Response): Promise<void> {
    const { url, pending } = await this.settings.login.start();
    const returnTo = consoleReturnPath(
      new URL(request.url, 'http://console.invalid').searchParams.get('return_to'),
    );
    const loginId = await this.settings.sessions.beginLogin(pending, returnTo);
    response.setHeader('Set-Cookie', this.cookie(LOGIN_COOKIE, loginId, 600));
    response.redirect(302, url.toString());
  }

  private async finishLogin(request: Request, response: Response): Promise<void> {
    const loginId = parseCookies(request.headers.cookie ?? '')[LOGIN_COOKIE];
    const pending = loginId ? await this.settings.sessions.takeLogin(loginId) : null;
    const clearLogin = this.cookie(LOGIN_COOKIE, '', 0);
    if (!pending) {
      response.setHeader('Set-Cookie', clearLogin);
      return this.loginFailed(response, 400, 'Diese Anmeldung ist abgelaufen oder wurde schon verwendet.');
    }
    const query = new URL(request.url, 'http://console.invalid').searchParams;
    const tokens = await this.settings.login.finish(query, pending).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === ErrorCode.ValidationFailed) return null;
      throw error;
    });
    if (!tokens) {
      response.setHeader('Set-Cookie', clearLogin);
      return this.loginFailed(response, 400, 'Die Antwort des Anmeldedienstes wurde nicht angenommen.');
    }
    const principal = await authenticateAdmin(this.verifier, `Bearer ${tokens.accessToken}`).catch(
      () => null,
    );
    if (!principal) {
      response.setHeader('Set-Cookie', clearLogin);
      return this.loginFailed(response, 403, 'Ihr Zugang berechtigt nicht zur Verwaltung dieser Plattform.');
    }
    const sessionId = await this.settings.sessions.create(principal, tokens);
    response.setHeader('Set-Cookie', [clearLogin, this.cookie(SESSION_COOKIE, sessionId)]);
    response.redirect(303, pending.returnTo);
  }

  private async describeSession(request: Request, response: Response): Promise<void> {
    const session = await this.requireSession(request);
    response.json({
      subject: session.subject,
      name: session.displayName ?? session.subject,
      role: session.role,
      tenant: session.tenantCode,
      csrf_token: this.settings.sessions.csrfToken(session),
      expires_at: session.expiresAt.toISOString(),
    });
  }

  private async logout(request: Request, response: Response): Promise<void> {
    const session = await this.requireWriter(request);
    await this.settings.sessions.end(session);
    this.endStreams(session);
    await this.settings.login.revoke(session.tokens);
    response.setHeader('Set-Cookie', this.cookie(SESSION_COOKIE, '', 0));
    response.json({ logout_url: await this.settings.login.logoutUrl(session.tokens.idToken) });
  }

  private async forwardToApi(request: Request, response: Response, next: NextFunction): Promise<void> {
    const session = SAFE_METHODS.has(request.method)
      ? await this.requireSession(request)
      : await this.requireWriter(request);
    request.url = `/admin/v1/${request.url.slice(API_PREFIX.length)}`;
    request.headers.authorization = `Bearer ${session.tokens.accessToken}`;
    delete request.headers.cookie;
    if (request.method === 'GET' && EVENT_STREAM_PATH.test(request.url)) this.bindStream(session, response);
    next();
  }

  /**
   * An event stream lives no longer than what let it open: it ends at logout, when the session ends and when its
   * access token expires; the browser then opens it again through the gate, which renews the token or refuses.
   */
  private bindStream(session: ConsoleSession, response: Response): void {
    const key = session.idHash.toString('hex');
    const open = this.streams.get(key) ?? new Set<Response>();
    this.streams.set(key, open.add(response));
    const until = Math.min(session.tokens.accessExpiresAt, session.expiresAt.getTime());
    const expiry = setTimeout(() => response.destroy(), Math.max(0, until - Date.now()));
    response.on('close', () => {
      clearTimeout(expiry);
      open.delete(response);
      if (open.size === 0) this.streams.delete(key);
    });
  }

  private endStreams(session: ConsoleSession): void {
    for (const response of this.streams.get(session.idHash.toString('hex')) ?? []) response.destroy();
  }

  private async requireSession(request: Request): Promise<ConsoleSession> {
    const session = await this.sessionOf(request);
    if (!session) throw new DomainError(ErrorCode.AuthenticationRequired, 'Log in to the console first');
    return session;
  }

  /** The session of a write: only from the console's own pages (its origin, and the session's CSRF token). */
  private async requireWriter(request: Request): Promise<ConsoleSession> {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== this.settings.baseUrl.origin) throw foreignWrite();
    const session = await this.requireSession(request);
    const token = request.headers[CSRF_HEADER];
    if (!this.settings.sessions.isCsrfToken(session, typeof token === 'string' ? token : undefined))
      throw new DomainError(ErrorCode.Forbidden, 'The CSRF token of the session is missing or wrong');
    return session;
  }

  private loginFailed(response: Response, status: number, message: string): void {
    response
      .status(status)
      .type('html')
      .send(
        consolePage('Anmeldung fehlgeschlagen', message, {
          href: this.loginPath(`${CONSOLE_PATH}/`),
          text: 'Erneut anmelden',
        }),
      );
  }

  private cookie(name: string, value: string, maxAgeSeconds?: number): string {
    return serializeCookie(name, value, { ...this.cookieBase, maxAge: maxAgeSeconds });
  }
}

/** Whether `path` is `base` or below it, by whole segments (`/queuesfoo` is not below `/queues`). */
export function isBelow(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

function isPageRequest(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && isBelow(path, CONSOLE_PATH);
}

/** A return path after login: one of the console's own pages, never another site. */
function consoleReturnPath(candidate: string | null): string {
  const home = `${CONSOLE_PATH}/`;
  if (!candidate || /[\u0000-\u001f\u007f\\]/.test(candidate) || !candidate.startsWith('/')) return home;
  // Resolved as the browser would resolve it (dot segments, encoded dots), it must stay below the console.
  const resolved = new URL(candidate, 'http://console.invalid');
  const path = `${resolved.pathname}${resolved.search}`;
  return resolved.origin === 'http://console.invalid' && path.startsWith(home) ? path : home;
}
