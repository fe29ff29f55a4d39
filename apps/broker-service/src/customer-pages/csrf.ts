import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';
import { DomainError, ErrorCode } from '@broker/errors';
import { type CustomerPage, customerPagePath } from './page-paths.js';

const NONCE = /^[A-Za-z0-9_-]{32}$/;

/** Each page's cookie, so that the two pages never read each other's. */
const COOKIES: Record<CustomerPage, string> = {
  unterschrift: 'unterschrift_csrf',
  'passwort-setzen': 'passwort_csrf',
};

/**
 * Cross-site request forgery protection of the customer pages' forms (a signed double submit): the page sets a
 * random nonce in an HttpOnly, SameSite=Lax cookie and puts HMAC(nonce, link token) into the form. A submit counts
 * only with both, so it must come from a browser that loaded this link's page from this site; another site can
 * neither read nor compute the pair. The HMAC key is derived from the service's secret.
 */
export class LinkFormCsrf {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly secureCookie: boolean,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'signing-page csrf', 32));
  }

  /** The form field for the link; sets the page's cookie unless the browser already has one. */
  issue(
    request: Request,
    response: Response,
    page: CustomerPage,
    tenantCode: string,
    linkToken: string,
  ): string {
    let nonce = this.nonceOf(request, page);
    if (!nonce) {
      nonce = randomBytes(24).toString('base64url');
      response.cookie(COOKIES[page], nonce, {
        httpOnly: true,
        // Lax: the link opens from a mail (a cross-site navigation), and a Strict cookie would not come along.
        sameSite: 'lax',
        secure: this.secureCookie,
        path: customerPagePath(tenantCode, page),
      });
    }
    return this.mac(nonce, linkToken);
  }

  /** Refuses (403) a form whose field does not fit the browser's cookie and the link. */
  verify(request: Request, page: CustomerPage, linkToken: string, field: string): void {
    const nonce = this.nonceOf(request, page);
    const expected = nonce ? Buffer.from(this.mac(nonce, linkToken)) : undefined;
    const given = Buffer.from(field);
    if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new DomainError(ErrorCode.Forbidden, 'The form could not be verified');
  }

  private nonceOf(request: Request, page: CustomerPage): string | undefined {
    const nonce = parseCookies(request.headers.cookie ?? '')[COOKIES[page]];
    return nonce && NONCE.test(nonce) ? nonce : undefined;
  }

  private mac(nonce: string, linkToken: string): string {
    return createHmac('sha256', this.key).update(`${nonce}\n${linkToken}`).digest('base64url');
  }
}
