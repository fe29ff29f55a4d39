import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { HttpRequestLike } from '../http-request.js';
import { ACTIVE_USERS, type ActiveUsers } from './active-users.js';
import { invalidLoginToken, LoginTokenService, type VerifiedLogin } from './login-token.service.js';

type RequestWithLogin = HttpRequestLike & { loginPrincipal?: VerifiedLogin };

/** The token of `Authorization: Bearer ...`, or of the misspelled `Authorisation` header the spec's example uses. */
function bearerToken(request: HttpRequestLike): string | undefined {
  const header = request.headers.authorization ?? request.headers.authorisation;
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(\S+)$/i.exec(value ?? '');
  return match?.[1];
}

/**
 * Area B: lets a request through only with a valid login token of a user that still exists and is enabled (as of
 * ActiveUsers' bound); the caller is then `loginPrincipalOf`.
 */
@Injectable()
export class LoginBearerGuard implements CanActivate {
  constructor(
    @Inject(LoginTokenService) private readonly tokens: LoginTokenService,
    @Inject(ACTIVE_USERS) private readonly users: ActiveUsers,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithLogin>();
    const principal = await this.tokens.verify(bearerToken(request));
    if (!(await this.users.isActive(principal.userId, principal.issuedAtSeconds)))
      throw invalidLoginToken('The user of this token no longer exists or is disabled');
    request.loginPrincipal = principal;
    return true;
  }
}

export function loginPrincipalOf(request: HttpRequestLike): VerifiedLogin {
  const principal = (request as RequestWithLogin).loginPrincipal;
  if (!principal) throw new Error('loginPrincipalOf() on a route without LoginBearerGuard');
  return principal;
}
