import { type ArgumentsHost, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { classifyClientFault, isRefusal, markRefused, requestIdOf } from '@broker/errors';
import { type Asset, CustomerPageAssets } from './page-assets.js';
import type { CustomerPage } from './page-paths.js';
import { clientErrorPage, type Page, type PageContext, renderPage, serverErrorPage } from './page-shell.js';

/**
 * Everything a page loads comes from this service (a refused form's drawing comes back as a data: image);
 * nothing may frame the page or learn its URL (it carries the token).
 */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; form-action 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

export function sendPage(
  response: Response,
  context: PageContext,
  page: Page,
  headers: Readonly<Record<string, string>> = {},
): void {
  response
    .status(page.status)
    .set({
      ...SECURITY_HEADERS,
      ...headers,
      'Cache-Control': 'no-store',
      'Content-Type': 'text/html; charset=utf-8',
    })
    .send(renderPage(context, page));
}

export function sendAsset(response: Response, asset: Asset): void {
  response
    .status(200)
    .set({ ...SECURITY_HEADERS, 'Cache-Control': 'public, max-age=86400', 'Content-Type': asset.contentType })
    .send(asset.content);
}

/**
 * Every fault on a customer page becomes a German HTML page with the status it stands for (never JSON, never a
 * stack trace); a server fault is logged with its details and shows only the request id. One subclass per page.
 */
export abstract class CustomerPageFilter implements ExceptionFilter {
  private readonly logger = new Logger('CustomerPage');

  protected constructor(
    private readonly assets: CustomerPageAssets,
    private readonly page: CustomerPage,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const reqId = requestIdOf(request as { id?: unknown });
    if (response.headersSent) {
      this.logger.error({ err: exception, reqId }, 'Error after the response was sent');
      response.end();
      return;
    }
    const context = this.assets.context(String(request.params.tenant ?? ''), this.page);
    const fault = classifyClientFault(exception, { method: request.method, path: request.path });
    if (fault) {
      if (isRefusal(fault)) markRefused(response);
      sendPage(response, context, clientErrorPage(fault.status, fault.headers['Retry-After']), fault.headers);
      return;
    }
    this.logger.error({ err: exception, reqId }, `Server fault on ${request.method} ${request.path}`);
    sendPage(response, context, serverErrorPage(reqId));
  }
}
