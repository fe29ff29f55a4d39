import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importPKCS8, type JWK } from 'jose';
import type { ClientMetadata, default as Provider } from 'oidc-provider';
import {
  handleInteraction,
  logoutPage,
  type OidcPerson,
  type OidcWebClient,
  PERSON_SCOPES,
} from './oidc-interactions.js';

export type { OidcPerson, OidcWebClient } from './oidc-interactions.js';

/**
 * A service account at the authorization server: its OAuth client and the claims of its tokens. A broker's account
 * (`brokerId`) gets import tokens; an administration account (`role`) gets administration tokens: scope
 * platform.operator, or platform.admin with the claim `tenant`.
 */
export type OidcServiceAccount = { clientId: string; clientSecret: string } & (
  | { tenant: string; brokerId: string; role?: undefined }
  | { role: 'operator'; tenant?: undefined; brokerId?: undefined }
  | { role: 'tenant-admin'; tenant: string; brokerId?: undefined }
);

export interface OidcAuthorizationServer {
  issuer: string;
  tokenUrl: string;
  jwksUrl: string;
  /** The resource indicator of the import service: the `aud` of its tokens. */
  audience: string;
  /** The import service's variables for trusting this server (issuer, audience, JWKS and token URL). */
  importServiceEnv: Record<string, string>;
  /** The administration service's variables for trusting this server. */
  adminServiceEnv: Record<string, string>;
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
export const ADMIN_RESOURCE = 'https://admin.broker-platform.test/';
const SCOPE = 'service.imports';

/** Where the server listens, the key it signs with, and the administration's resource (all made up unless given). */
export interface OidcServerSetup {
  port?: number;
  signingKeyPem?: string;
  adminResource?: string;
  /** The import service's resource indicator, the `aud` of its tokens (IMPORT_RESOURCE unless given). */
  importResource?: string;
}

/** People who log in at the server's own pages, and the web applications they log in to (the operator console). */
export interface OidcInteractiveLogins {
  people: OidcPerson[];
  webClients: OidcWebClient[];
}

/**
 * A real OAuth 2.0 authorization server (panva's oidc-provider) on 127.0.0.1: the client credentials grant for
 * the given service accounts, JWT access tokens (RS256) for the import service's resource with scope
 * service.imports and the account's `tenant` and `broker_id` claims, keys served at `jwksUrl`. With `logins`, also
 * OpenID Connect's authorization code grant (PKCE, refresh tokens, RP-initiated logout) for its web clients, with
 * login and consent pages for its people: administration tokens of the person's scope and tenant.
 */
export async function startOidcAuthorizationServer(
  accounts: OidcServiceAccount[],
  tokenSeconds = 300,
  logins: OidcInteractiveLogins = { people: [], webClients: [] },
  setup: OidcServerSetup = {},
): Promise<OidcAuthorizationServer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(setup.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const adminResource = setup.adminResource ?? ADMIN_RESOURCE;
  const importResource = setup.importResource ?? IMPORT_RESOURCE;
  let keys = [setup.signingKeyPem ? await keyOf(setup.signingKeyPem) : await signingKey()];
  const serve = async () => {
    const current = await provider(
      issuer,
      { accounts, logins, adminResource, importResource },
      keys,
      tokenSeconds,
    );
    const handle = current.callback();
    server.removeAllListeners('request');
    server.on('request', (request, response) => {
      handleInteraction(current, logins.people, adminResource, request, response).then(
        (handled) => {
          if (!handled) void handle(request, response);
        },
        (error: unknown) => {
          response.writeHead(400, { 'Content-Type': 'text/plain' }).end(String(error));
        },
      );
    });
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
    audience: importResource,
    importServiceEnv: {
      IMPORT_OAUTH_ISSUER: issuer,
      IMPORT_OAUTH_AUDIENCE: importResource,
      IMPORT_OAUTH_JWKS_URL: `${issuer}/jwks`,
      IMPORT_OAUTH_TOKEN_URL: `${issuer}/token`,
    },
    adminServiceEnv: {
      ADMIN_OAUTH_ISSUER: issuer,
      ADMIN_OAUTH_AUDIENCE: adminResource,
      ADMIN_OAUTH_JWKS_URL: `${issuer}/jwks`,
      ADMIN_OAUTH_TOKEN_URL: `${issuer}/token`,
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

/** The development key (PKCS #8 PEM) as the provider's signing key. */
async function keyOf(pem: string): Promise<JWK> {
  const key = await importPKCS8(pem, 'RS256', { extractable: true });
  return { ...(await exportJWK(key)), kid: 'dev-login-key', alg: 'RS256', use: 'sig' };
}

/** An RS256 signing key as a private JWK with a `kid` of its own. */
async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `oidc-test-key-${++keyCount}`, alg: 'RS256', use: 'sig' };
}

const WEB_SCOPES = ['openid', 'profile', 'offline_access', ...Object.values(PERSON_SCOPES)].join(' ');

/** The provider for the accounts and logins, signing with the first of `keys` and publishing all of them. */
async function provider(
  issuer: string,
  {
    accounts,
    logins,
    adminResource,
    importResource,
  }: {
    accounts: OidcServiceAccount[];
    logins: OidcInteractiveLogins;
    adminResource: string;
    importResource: string;
  },
  keys: JWK[],
  tokenSeconds: number,
): Promise<Provider> {
  const byClient = new Map(accounts.map((account) => [account.clientId, account]));
  const webClientIds = new Set(logins.webClients.map((client) => client.clientId));
  const person = (accountId: unknown) => logins.people.find((candidate) => candidate.username === accountId);
  // Loaded here, not with the module: every test file imports this library, few start the server.
  const { default: Provider } = await import('oidc-provider');
  const webClients = logins.webClients.map((client): ClientMetadata => ({
    client_id: client.clientId,
    client_secret: client.clientSecret,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    scope: WEB_SCOPES,
    token_endpoint_auth_method: 'client_secret_basic',
  }));
  return new Provider(issuer, {
    clients: [
      ...webClients,
      ...accounts.map((account): ClientMetadata => ({
        client_id: account.clientId,
        client_secret: account.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: account.role ? PERSON_SCOPES[account.role] : SCOPE,
        token_endpoint_auth_method: 'client_secret_basic',
      })),
    ],
    jwks: { keys },
    cookies: { keys: ['oidc-test-cookie-key'] },
    scopes: [SCOPE, 'offline_access', ...Object.values(PERSON_SCOPES)],
    claims: { openid: ['sub'], profile: ['name'] },
    conformIdTokenClaims: false,
    findAccount: (_context, accountId) => {
      const found = person(accountId);
      return found && { accountId, claims: () => ({ sub: accountId, name: found.name }) };
    },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: (_context, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { ClientCredentials: tokenSeconds, IdToken: tokenSeconds },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (context, form) => {
          context.body = logoutPage(form);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_context, client) =>
          byClient.get(String(client?.clientId))?.role || webClientIds.has(String(client?.clientId))
            ? adminResource
            : importResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context, resource) => ({
          scope: resource === adminResource ? Object.values(PERSON_SCOPES).join(' ') : SCOPE,
          accessTokenTTL: tokenSeconds,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: (_context, token) => {
      const loggedIn = person((token as { accountId?: string }).accountId);
      if (loggedIn) return loggedIn.tenant ? { tenant: loggedIn.tenant } : {};
      const account = byClient.get(String((token as { clientId?: string }).clientId));
      if (!account) return {};
      if (account.role === 'operator') return {};
      if (account.role === 'tenant-admin') return { tenant: account.tenant };
      return { tenant: account.tenant, broker_id: account.brokerId };
    },
  });
}
