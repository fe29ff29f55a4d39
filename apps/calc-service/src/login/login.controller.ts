import { setTimeout } from 'node:timers/promises';
import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { LoginTokenService } from '@broker/auth';
import { ApiErrorView } from '@broker/contracts';
import { DomainError, ErrorCode } from '@broker/errors';
import { ApiJsonAnswer, ClientAddresses, noStoreHeader, RETRY_AFTER_HEADER } from '@broker/platform';
import type { FastifyRequest } from 'fastify';
import { JWKS_SCHEMA } from '../openapi.js';
import { LoginThrottle } from './login-throttle.js';
import { LoginRequest, LoginResponse } from './login.dto.js';
import { UserAccounts } from './user-accounts.js';

/** The JWKS path: where clients (and the gateway) find the key login tokens are verified with. */
export const JWKS_PATH = 'api/.well-known/jwks.json';

@ApiTags('login')
@Controller()
export class LoginController {
  constructor(
    private readonly accounts: UserAccounts,
    private readonly throttle: LoginThrottle,
    private readonly clients: ClientAddresses,
    @Inject(LoginTokenService) private readonly tokens: LoginTokenService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * 200 {token} with Expires; a wrong user name or password is the same 401; failures slow the next attempts
   * (LoginThrottle), and repeated failures of one user name from one address (TRUSTED_PROXIES tells the address)
   * are a 429 with Retry-After until the window ends. Renewing is logging in again.
   */
  @Post('api/login')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'login',
    summary: 'Log in with user name and password; renewing is logging in again',
  })
  @ApiOkResponse({
    type: LoginResponse,
    headers: {
      Expires: { description: 'Expiry of the token (HTTP date)', required: true, schema: { type: 'string' } },
      'Cache-Control': noStoreHeader('no-store'),
    },
  })
  @ApiUnauthorizedResponse({ type: ApiErrorView, description: 'User name or password is wrong' })
  @ApiTooManyRequestsResponse({
    type: ApiErrorView,
    description: 'Too many failed logins; see Retry-After',
    headers: { 'Retry-After': RETRY_AFTER_HEADER },
  })
  async login(
    @Body() request: LoginRequest,
    @Req() incoming: FastifyRequest,
    @Res({ passthrough: true }) response: unknown,
  ): Promise<{ token: string }> {
    const address = this.clients.of(incoming.raw);
    const admission = await this.throttle.admit(request.username, address);
    if (admission.retryAfterSeconds > 0)
      throw new DomainError(ErrorCode.RateLimited, 'Too many failed logins; try again later', [], {
        'Retry-After': String(admission.retryAfterSeconds),
      });
    // Before the password is checked, for known and unknown names alike: the wait tells nothing.
    if (admission.delayMs > 0) await setTimeout(admission.delayMs);
    const principal = await this.accounts.authenticate(request.username, request.password);
    // The attempt was counted as a failure when it was admitted.
    if (!principal) throw new DomainError(ErrorCode.AuthenticationFailed, 'User name or password is wrong');
    await this.throttle.succeeded(request.username, address);
    const issued = await this.tokens.issue(principal);
    const http = this.adapterHost.httpAdapter;
    http.setHeader(response, 'Expires', issued.expiresAt.toUTCString());
    http.setHeader(response, 'Cache-Control', 'no-store');
    return { token: issued.token };
  }

  @Get(JWKS_PATH)
  @ApiOperation({ operationId: 'jwks', summary: 'The public key login tokens are verified with (JWKS)' })
  @ApiJsonAnswer(JWKS_SCHEMA, { description: 'The key set' })
  jwks() {
    return this.tokens.jwks();
  }
}
