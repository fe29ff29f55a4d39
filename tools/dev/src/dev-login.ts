import { type OidcAuthorizationServer, type OidcPerson, startOidcAuthorizationServer } from '@broker/testing';
import { DEV_ADMIN_OAUTH_AUDIENCE, DEV_CONSOLE_CLIENT_ID, DEV_LOGIN_PORT } from './dev-environment.js';

/** Who logs in to the operator console in development (their passwords are no secret: development only). */
export const DEV_CONSOLE_PEOPLE: OidcPerson[] = [
  { username: 'betrieb', password: 'betrieb-entwicklung', name: 'Betrieb (Entwicklung)', role: 'operator' },
  {
    username: 'verwaltung',
    password: 'verwaltung-entwicklung',
    name: 'Verwaltung demo (Entwicklung)',
    role: 'tenant-admin',
    tenant: 'demo',
  },
];

/**
 * The development login provider (panva's oidc-provider, as the tests run it) on DEV_LOGIN_PORT: the console at
 * `consoleUrl` as its client, DEV_CONSOLE_PEOPLE with login and consent pages, administration tokens signed with the
 * development key the administration service trusts in development.
 */
export function startDevLogin(
  consoleUrl: string,
  secrets: { ADMIN_CONSOLE_CLIENT_SECRET: string; devTokenPrivateKey: string },
): Promise<OidcAuthorizationServer> {
  return startOidcAuthorizationServer(
    [],
    900,
    {
      people: DEV_CONSOLE_PEOPLE,
      webClients: [
        {
          clientId: DEV_CONSOLE_CLIENT_ID,
          clientSecret: secrets.ADMIN_CONSOLE_CLIENT_SECRET,
          redirectUris: [`${consoleUrl}/callback`],
          postLogoutRedirectUris: [`${consoleUrl}/`],
        },
      ],
    },
    {
      port: DEV_LOGIN_PORT,
      signingKeyPem: secrets.devTokenPrivateKey,
      adminResource: DEV_ADMIN_OAUTH_AUDIENCE,
    },
  );
}
