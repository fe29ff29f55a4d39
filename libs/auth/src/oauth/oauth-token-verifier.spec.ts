import { generateKeyPair, SignJWT } from 'jose';
import { DomainError, ErrorCode } from '@broker/errors';
import {
  startTestAuthorizationServer,
  TEST_OAUTH_AUDIENCE,
  TEST_OAUTH_ISSUER,
  type TestAuthorizationServer,
} from '@broker/testing';
import { JWKS_REFETCH_COOLDOWN_MS, OAuthTokenVerifier } from './oauth-token-verifier.js';

const settings = {
  issuer: TEST_OAUTH_ISSUER,
  audience: TEST_OAUTH_AUDIENCE,
  algorithms: ['RS256'],
  requiredScope: 'service.imports',
};

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('OAuthTokenVerifier', () => {
  let authServer: TestAuthorizationServer;
  let viaJwks: OAuthTokenVerifier;
  let viaPem: OAuthTokenVerifier;

  beforeAll(async () => {
    authServer = await startTestAuthorizationServer();
    viaJwks = new OAuthTokenVerifier({ ...settings, jwksUrl: authServer.jwksUrl });
    viaPem = new OAuthTokenVerifier({ ...settings, publicKeyPem: authServer.publicKeyPem });
  });
  afterAll(() => authServer.close());

  it.each([
    ['JWKS', () => viaJwks],
    ['configured public key', () => viaPem],
  ])('accepts a valid user token (%s)', async (_how, verifier) => {
    const principal = await verifier().verify(`Bearer ${await authServer.token()}`);
    expect(principal).toEqual({
      kind: 'user',
      tenantCode: 'demo',
      brokerNumber: 'V1000',
      subject: 'employee-01_01',
    });
  });

  it('recognises a service account and scopes given as an scp array', async () => {
    const token = await authServer.token({
      claims: {
        sub: 'portal-sync',
        client_id: 'portal-sync',
        scope: undefined,
        scp: ['other', 'service.imports'],
      },
    });
    expect(await viaJwks.verify(`Bearer ${token}`)).toEqual({
      kind: 'service',
      tenantCode: 'demo',
      brokerNumber: 'V1000',
      subject: 'portal-sync',
    });
  });

  it.each([
    ['no header', () => Promise.resolve(undefined), 'A bearer token is required'],
    [
      'another scheme',
      () => Promise.resolve(`Basic ${Buffer.from('a:b').toString('base64')}`),
      'A bearer token is required',
    ],
    ['garbage', () => Promise.resolve('Bearer not.a.jwt'), 'The token is not a valid JWT'],
    [
      'an expired token',
      async (s: TestAuthorizationServer) => `Bearer ${await s.token({ expiresIn: -60 })}`,
      'The token has expired',
    ],
    [
      'another issuer',
      async (s: TestAuthorizationServer) => `Bearer ${await s.token({ issuer: 'https://evil/' })}`,
      "The token's iss claim is not accepted",
    ],
    [
      'another audience',
      async (s: TestAuthorizationServer) => `Bearer ${await s.token({ audience: 'calc' })}`,
      "The token's aud claim is not accepted",
    ],
    [
      'no tenant',
      async (s: TestAuthorizationServer) => `Bearer ${await s.token({ claims: { tenant: undefined } })}`,
      'The token names no tenant or broker',
    ],
  ])('refuses %s with 401 invalid_token', async (_case, header, message) => {
    const error = await rejection(viaJwks.verify(await header(authServer)));
    expect(error.code).toBe(ErrorCode.AuthenticationFailed);
    expect(error.message).toBe(message);
    expect(error.headers['WWW-Authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });

  it('refuses a tampered token and one signed by another key', async () => {
    const [header, payload, signature] = (await authServer.token()).split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()),
        broker_id: 'V2000',
      }),
    );
    const tampered = `Bearer ${header}.${forged.toString('base64url')}.${signature}`;
    expect((await rejection(viaPem.verify(tampered))).message).toBe('The token signature is not valid');
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ tenant: 'demo', broker_id: 'V1000', scope: 'service.imports' })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('x')
      .setIssuer(TEST_OAUTH_ISSUER)
      .setAudience(TEST_OAUTH_AUDIENCE)
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await rejection(viaPem.verify(`Bearer ${foreign}`))).code).toBe(ErrorCode.AuthenticationFailed);
  });

  it('answers a token of an unknown key with 401 while the keys in hand are fresh, the key server down or not', async () => {
    const server = await startTestAuthorizationServer();
    const verifier = new OAuthTokenVerifier({ ...settings, jwksUrl: server.jwksUrl, jwksMaxAgeMs: 60_000 });
    await verifier.verify(`Bearer ${await server.token()}`);
    await server.close();
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ tenant: 'demo', broker_id: 'V1000', scope: 'service.imports' })
      .setProtectedHeader({ alg: 'RS256', kid: 'not-at-the-server' })
      .setIssuer(TEST_OAUTH_ISSUER)
      .setAudience(TEST_OAUTH_AUDIENCE)
      .setExpirationTime('5m')
      .sign(privateKey);
    const unknownKey = {
      code: ErrorCode.AuthenticationFailed,
      message: 'The token was signed with an unknown key',
    };
    // At once (the key set was read just now) and after the refetch cooldown, when the server is asked again.
    expect(await rejection(verifier.verify(`Bearer ${foreign}`))).toMatchObject(unknownKey);
    await new Promise((resolve) => setTimeout(resolve, JWKS_REFETCH_COOLDOWN_MS + 500));
    expect(await rejection(verifier.verify(`Bearer ${foreign}`))).toMatchObject(unknownKey);
  }, 20_000);

  it('refuses an algorithm that is not accepted', async () => {
    const hs256 = await new SignJWT({ tenant: 'demo', broker_id: 'V1000', scope: 'service.imports' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer(TEST_OAUTH_ISSUER)
      .setAudience(TEST_OAUTH_AUDIENCE)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-that-is-long-enough!'));
    const error = await rejection(viaPem.verify(`Bearer ${hs256}`));
    expect(error.message).toBe('The token is signed with an algorithm that is not accepted');
  });

  it('refuses an administration token, whatever other scopes it has', async () => {
    for (const scope of ['platform.admin', 'platform.operator service.imports']) {
      const token = await authServer.token({ claims: { scope } });
      const error = await rejection(viaJwks.verify(`Bearer ${token}`));
      expect(error.code).toBe(ErrorCode.AuthenticationFailed);
      expect(error.message).toBe('An administration token is not accepted here');
    }
  });

  it('answers a token without the scope with 403 insufficient_scope', async () => {
    const token = await authServer.token({ claims: { scope: 'service.other' } });
    const error = await rejection(viaJwks.verify(`Bearer ${token}`));
    expect(error.code).toBe(ErrorCode.InsufficientScope);
    expect(error.headers['WWW-Authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="service.imports"',
    );
  });
});
