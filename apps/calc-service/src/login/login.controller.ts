import { Body, Controller, Get, HttpCode, Inject, Ip, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { LoginTokenService } from '@broker/auth';
import { DomainError, ErrorCode } from '@broker/errors';
import { LoginThrottle } from './login-throttle.js';
import { LoginRequest } from './login.dto.js';
import { UserAccounts } from './user-accounts.js';

/** The JWKS path: where clients (and the gateway) find the key login tokens are verified with. */
export const JWKS_PATH = 'api/.well-known/jwks.json';

@Controller()
export class LoginController {
  constructor(
    private readonly accounts: UserAccounts,
    private readonly throttle: LoginThrottle,
    @Inject(LoginTokenService) private readonly tokens: LoginTokenService,
  ) {}

  /**
   * 200 {token} with Expires; a wrong user name or password is the same 401; repeated failures of one user name
   * from one address are a 429 with Retry-After until the window ends. Renewing is logging in again.
   */
  @Post('api/login')
  @HttpCode(200)
  async login(
    @Body() request: LoginRequest,
    @Ip() address: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ token: string }> {
    const key = `${request.username.toLowerCase()}|${address}`;
    const wait = await this.throttle.retryAfter(key);
    if (wait > 0)
      throw new DomainError(ErrorCode.RateLimited, 'Too many failed logins; try again later', [], {
        'Retry-After': String(wait),
      });
    const principal = await this.accounts.authenticate(request.username, request.password);
    if (!principal) {
      await this.throttle.recordFailure(key);
      throw new DomainError(ErrorCode.AuthenticationFailed, 'User name or password is wrong');
    }
    await this.throttle.clear(key);
    const issued = await this.tokens.issue(principal);
    response.setHeader('Expires', issued.expiresAt.toUTCString());
    response.setHeader('Cache-Control', 'no-store');
    return { token: issued.token };
  }

  @Get(JWKS_PATH)
  jwks() {
    return this.tokens.jwks();
  }
}
