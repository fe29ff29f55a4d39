import { generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { DomainError } from '@broker/errors';
import { LoginTokenService } from './login-token.service.js';

const pem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

describe('LoginTokenService', () => {
  const settings = { privateKeyPem: pem(), keyId: 'calc-test', issuer: 'calc-test-issuer', ttlSeconds: 600 };
  const service = new LoginTokenService(settings);
  const principal = { userId: '7', username: 'demo', tenant: 'demo' };

  it('issues an RS256 token with subject, user name, tenant and expiry that its own JWKS verifies', async () => {
    const now = new Date();
    const issued = await service.issue(principal, now);
    expect(decodeJwt(issued.token)).toMatchObject({
      sub: '7',
      name: 'demo',
      tenant: 'demo',
      iss: 'calc-test-issuer',
    });
    expect(issued.expiresAt.getTime()).toBe(Math.floor(now.getTime() / 1000) * 1000 + 600_000);
    const { protectedHeader } = await jwtVerify(issued.token, createLocalJWKSet(await service.jwks()));
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: 'calc-test' });
    expect(await service.verify(issued.token)).toEqual({
      ...principal,
      issuedAtSeconds: Math.floor(now.getTime() / 1000),
    });
  });

  const refusal = async (token: string | undefined) => {
    const error = await service.verify(token).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  };

  it('refuses a missing, expired, tampered or foreign token with a 401 message', async () => {
    expect(await refusal(undefined)).toBe('A bearer token is required');
    const expired = await service.issue(principal, new Date(Date.now() - 3_600_000));
    expect(await refusal(expired.token)).toBe('The token has expired; log in again');
    const { token } = await service.issue(principal);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(token), tenant: 'other' })).toString(
      'base64url',
    );
    expect(await refusal(`${header}.${forged}.${signature}`)).toBe('The token is not valid');
    const foreign = await new LoginTokenService({ ...settings, privateKeyPem: pem() }).issue(principal);
    expect(await refusal(foreign.token)).toBe('The token is not valid');
    expect(payload).toBeDefined();
  });

  it('remembers a verified token only until it expires', async () => {
    const issuedAt = new Date(Date.now() - 598_000);
    const issued = await service.issue(principal, issuedAt);
    expect(await service.verify(issued.token)).toEqual({
      ...principal,
      issuedAtSeconds: Math.floor(issuedAt.getTime() / 1000),
    });
    jest.useFakeTimers({
      now: Date.now() + 5_000,
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'],
    });
    try {
      expect(await refusal(issued.token)).toBe('The token has expired; log in again');
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a key that is not RSA', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => new LoginTokenService({ ...settings, privateKeyPem: ec })).toThrow('must be an RSA key');
  });
});
