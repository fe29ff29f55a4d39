import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** A service account of a broker at the authorization server: its OAuth client and the claims of its tokens. */
export interface OidcServiceAccount {
  clientId: string;
  clientSecret: string;
  tenant: string;
  brokerId: string;
}

export interface OidcAuthorizationServer {
  issuer: string;
  tokenUrl: string;
  jwksUrl: string;
  /** The resource indicator of the import service: the `aud` of its tokens. */
  audience: string;
  /** The import service's variables for trusting this server (issuer, audience, JWKS and token URL). */
  importServiceEnv: Record<string, string>;
  /**
   * A new signing key: tokens are signed with it from now on; the JWKS lists it, and the old key too when
   * `keepOld` (a rotation in progress), else not (the old key removed).
   */
  rotateKeys(options: { keepOld: boolean }): Promise<void>;
  /** Stops answering (connections refused) until `resume`, on the same address. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export const IMPORT_RESOURCE = 'https://import.broker-platform.test/';
const SCOPE = 'service.imports';

/**
 * A real OAuth 2.0 authorization server (panva's oidc-provider) on 127.0.0.1: the client credentials grant for
 * the given service accounts, JWT access tokens (RS256) for the import service's resource with scope
 * service.imports and the account's `tenant` and `broker_id` claims, keys served at `jwksUrl`.
 */
export async function startOidcAuthorizationServer(
  accounts: OidcServiceAccount[],
  tokenSeconds = 300,
): Promise<OidcAuthorizationServer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  let keys = [await signingKey()];
  const serve = async () => {
    const handle = (await provider(issuer, accounts, keys, tokenSeconds)).callback();
    server.removeAllListeners('request');
    server.on('request', (request, response) => void handle(request, response));
  };
  await serve();
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Kept-alive connections of the clients would keep it open.
      server.closeAllConnections();
    });
  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    audience: IMPORT_RESOURCE,
    importServiceEnv: {
      IMPORT_OAUTH_ISSUER: issuer,
      IMPORT_OAUTH_AUDIENCE: IMPORT_RESOURCE,
      IMPORT_OAUTH_JWKS_URL: `${issuer}/jwks`,
      IMPORT_OAUTH_TOKEN_URL: `${issuer}/token`,
    },
    async rotateKeys({ keepOld }) {
      keys = [await signingKey(), ...(keepOld ? keys : [])];
      await serve();
    },
    pause: close,
    resume: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close,
  };
}

let keyCount = 0;

/** An RS256 signing key as a private JWK with a `kid` of its own. */
async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `oidc-test-key-${++keyCount}`, alg: 'RS256', use: 'sig' };
}

/** The provider for the accounts, signing with the first of `keys` and publishing all of them. */
async function provider(issuer: string, accounts: OidcServiceAccount[], keys: JWK[], tokenSeconds: number) {
  const byClient = new Map(accounts.map((account) => [account.clientId, account]));
  // Loaded here, not with the module: every test file imports this library, few start the server.
  const { default: Provider } = await import('oidc-provider');
  return new Provider(issuer, {
    clients: accounts.map((account) => ({
      client_id: account.clientId,
      client_secret: account.clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: SCOPE,
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys },
    cookies: { keys: ['oidc-test-cookie-key'] },
    scopes: [SCOPE],
    ttl: { ClientCredentials: tokenSeconds },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => IMPORT_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: SCOPE,
          accessTokenTTL: tokenSeconds,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: (_context, token) => {
      const account = byClient.get(String((token as { clientId?: string }).clientId));
      return account ? { tenant: account.tenant, broker_id: account.brokerId } : {};
    },
  });
}
