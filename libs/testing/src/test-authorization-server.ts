import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export const TEST_OAUTH_ISSUER = 'https://auth.test.local/';
export const TEST_OAUTH_AUDIENCE = 'broker-platform-import';

export interface TokenOptions {
  claims?: JWTPayload;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  issuer?: string;
  audience?: string;
}

export interface TestAuthorizationServer {
  jwksUrl: string;
  publicKeyPem: string;
  /** A signed access token for tenant demo / broker V1000 with scope service.imports, unless overridden. */
  token(options?: TokenOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * A local OAuth 2.0 authorization server as far as a resource server sees one: an RS256 key pair whose
 * public half is served as a JWKS over HTTP on 127.0.0.1, and tokens signed with the private half.
 */
export async function startTestAuthorizationServer(): Promise<TestAuthorizationServer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer((_request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    publicKeyPem: await exportSPKI(publicKey),
    token: (options = {}) =>
      new SignJWT({ tenant: 'demo', broker_id: 'V1000', scope: 'service.imports', ...options.claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setSubject(typeof options.claims?.sub === 'string' ? options.claims.sub : 'employee-01_01')
        .setIssuer(options.issuer ?? TEST_OAUTH_ISSUER)
        .setAudience(options.audience ?? TEST_OAUTH_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + (options.expiresIn ?? 300))
        .sign(privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
