import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

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
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'oidc-test-key', alg: 'RS256', use: 'sig' };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const byClient = new Map(accounts.map((account) => [account.clientId, account]));
  // Loaded here, not with the module: every test file imports this library, few start the server.
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: accounts.map((account) => ({
      client_id: account.clientId,
      client_secret: account.clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: SCOPE,
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [signingKey] },
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
  const handle = provider.callback();
  server.on('request', (request, response) => void handle(request, response));
  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    audience: IMPORT_RESOURCE,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
