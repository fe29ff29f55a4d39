import { generateKeyPairSync } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import type { HttpRequestLike } from '../http-request.js';
import { DomainError } from '@broker/errors';
import { LoginBearerGuard, loginPrincipalOf } from './login-bearer.guard.js';
import { CachedActiveUsers } from './active-users.js';
import { LoginTokenService } from './login-token.service.js';

const tokens = new LoginTokenService({
  privateKeyPem: generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
  keyId: 'calc-test',
  issuer: 'calc-test',
  ttlSeconds: 60,
});
/** User 1 exists and is enabled; user 2 was disabled or deleted. */
const guard = new LoginBearerGuard(
  tokens,
  new CachedActiveUsers((userId) => Promise.resolve(userId === '1'), 1_000),
);

function contextWith(headers: Record<string, string>): {
  context: ExecutionContext;
  request: HttpRequestLike;
} {
  const request = { headers } as HttpRequestLike;
  const context = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  return { context, request };
}

describe('LoginBearerGuard', () => {
  const principal = { userId: '1', username: 'demo', tenant: 'demo' };

  it.each(['authorization', 'authorisation'])('takes the token from the %s header', async (header) => {
    const { token } = await tokens.issue(principal);
    const { context, request } = contextWith({ [header]: `Bearer ${token}` });
    expect(await guard.canActivate(context)).toBe(true);
    expect(loginPrincipalOf(request)).toEqual({ ...principal, issuedAtSeconds: expect.any(Number) });
  });

  it.each([{}, { authorization: 'Basic abc' }, { authorisation: 'Bearer' }])(
    'refuses %j with a 401 domain error',
    async (headers) => {
      const { context } = contextWith(headers);
      await expect(guard.canActivate(context)).rejects.toThrow(DomainError);
      await expect(guard.canActivate(context)).rejects.toThrow('A bearer token is required');
    },
  );

  it('refuses a valid token of a user that no longer exists or is disabled', async () => {
    const { token } = await tokens.issue({ ...principal, userId: '2' });
    const { context } = contextWith({ authorization: `Bearer ${token}` });
    await expect(guard.canActivate(context)).rejects.toThrow(
      'The user of this token no longer exists or is disabled',
    );
  });
});
