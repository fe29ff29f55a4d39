import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { HttpRequestLike } from '../http-request.js';
import { type OAuthPrincipal, OAuthTokenVerifier } from './oauth-token-verifier.js';

type RequestWithPrincipal = HttpRequestLike & { principal?: OAuthPrincipal };

/** Lets a request through only with a valid bearer token; the caller is then `principalOf(request)`. */
@Injectable()
export class OAuthBearerGuard implements CanActivate {
  constructor(@Inject(OAuthTokenVerifier) private readonly verifier: OAuthTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    request.principal = await this.verifier.verify(request.headers.authorization);
    return true;
  }
}

export function principalOf(request: HttpRequestLike): OAuthPrincipal {
  const principal = (request as RequestWithPrincipal).principal;
  if (!principal) throw new Error('principalOf() on a route without OAuthBearerGuard');
  return principal;
}
