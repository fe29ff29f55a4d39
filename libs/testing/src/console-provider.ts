import { randomBytes } from 'node:crypto';
import { type OidcAuthorizationServer, startOidcAuthorizationServer } from './oidc-authorization-server.js';
import type { OidcPerson } from './oidc-interactions.js';

/** The people of the console's tests: an operator, and the administrators of the tenants demo and nord. */
export const CONSOLE_PEOPLE = {
  olga: { username: 'olga', password: 'olga-passwort', name: 'Olga Operator', role: 'operator' },
  anna: {
    username: 'anna',
    password: 'anna-passwort',
    name: 'Anna Admin',
    role: 'tenant-admin',
    tenant: 'demo',
  },
  nils: {
    username: 'nils',
    password: 'nils-passwort',
    name: 'Nils Nord',
    role: 'tenant-admin',
    tenant: 'nord',
  },
} satisfies Record<string, OidcPerson>;

export interface ConsoleProvider {
  provider: OidcAuthorizationServer;
  /** The administration service's variables: trusting the provider's tokens, and its console as the provider's client. */
  adminEnv: Record<string, string>;
}

/**
 * A real OpenID provider for the operator console at `consoleUrl` (e.g. http://127.0.0.1:8080/admin/console): the
 * console registered as a confidential client, CONSOLE_PEOPLE able to log in; access tokens live `tokenSeconds`.
 */
export async function startConsoleProvider(consoleUrl: string, tokenSeconds = 300): Promise<ConsoleProvider> {
  const client = { clientId: 'broker-console', clientSecret: randomBytes(24).toString('hex') };
  const provider = await startOidcAuthorizationServer([], tokenSeconds, {
    people: Object.values(CONSOLE_PEOPLE),
    webClients: [
      { ...client, redirectUris: [`${consoleUrl}/callback`], postLogoutRedirectUris: [`${consoleUrl}/`] },
    ],
  });
  return {
    provider,
    adminEnv: {
      ...provider.adminServiceEnv,
      ADMIN_CONSOLE_OIDC_ISSUER: provider.issuer,
      ADMIN_CONSOLE_CLIENT_ID: client.clientId,
      ADMIN_CONSOLE_CLIENT_SECRET: client.clientSecret,
      ADMIN_CONSOLE_BASE_URL: consoleUrl,
      ADMIN_SESSION_SECRET: randomBytes(32).toString('base64'),
    },
  };
}
