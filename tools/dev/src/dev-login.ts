import { type OidcAuthorizationServer, type OidcPerson, startOidcAuthorizationServer } from '@broker/testing';
import {
  DEV_ADMIN_OAUTH_AUDIENCE,
  DEV_CONSOLE_CLIENT_ID,
  DEV_LOGIN_PORT,
  DEV_OAUTH_AUDIENCE,
} from './dev-environment.js';
import { DEMO_IMPORT_CLIENTS } from './seed/demo-data.js';

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
 * development key the administration service trusts in development; and the development token endpoint of area A:
 * the client-credentials grant for DEMO_IMPORT_CLIENTS, import tokens signed with the same key.
 */
export function startDevLogin(
  consoleUrl: string,
  secrets: { ADMIN_CONSOLE_CLIENT_SECRET: string; devTokenPrivateKey: string },
): Promise<OidcAuthorizationServer> {
  return startOidcAuthorizationServer(
    DEMO_IMPORT_CLIENTS,
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
      importResource: DEV_OAUTH_AUDIENCE,
    },
  );
}
