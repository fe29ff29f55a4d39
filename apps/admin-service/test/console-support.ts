import { type APIRequestContext, type APIResponse, request } from 'playwright-core';
import { findFreePort } from '@broker/local-services';
import { type OidcAuthorizationServer, type OidcPerson, startConsoleProvider } from '@broker/testing';
import { type AdminTestApp, startAdminTestApp } from './admin-test-app.js';

export interface ConsoleTestApp {
  admin: AdminTestApp;
  provider: OidcAuthorizationServer;
  /** http://127.0.0.1:{port}/admin/console */
  baseUrl: string;
  origin: string;
  /** A new cookie jar (a browser without a session); redirects are followed unless said otherwise. */
  newClient(): Promise<APIRequestContext>;
  /** A cookie jar with a session of `person`, logged in through the provider's pages. */
  loggedIn(person: OidcPerson): Promise<APIRequestContext>;
  close(): Promise<void>;
}

/**
 * The administration service with its console, listening on a port of its own, and a real OpenID provider
 * (oidc-provider) with login and consent pages whose tokens the service trusts; access tokens live `tokenSeconds`.
 */
export async function startConsoleTestApp(tokenSeconds = 300): Promise<ConsoleTestApp> {
  const port = await findFreePort();
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = `${origin}/admin/console`;
  const { provider, adminEnv } = await startConsoleProvider(baseUrl, tokenSeconds);
  const admin = await startAdminTestApp(adminEnv);
  await admin.app.listen(port, '127.0.0.1');
  const clients: APIRequestContext[] = [];
  const newClient = async () => {
    const client = await request.newContext();
    clients.push(client);
    return client;
  };
  return {
    admin,
    provider,
    baseUrl,
    origin,
    newClient,
    async loggedIn(person) {
      const client = await newClient();
      const callback = await callbackUrl(client, baseUrl, person);
      const answer = await client.get(callback);
      if (answer.status() !== 200) throw new Error(`Login of ${person.username}: ${answer.status()}`);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.dispose()));
      await admin.close();
      await provider.close();
    },
  };
}

/**
 * Logs `person` in at the provider's pages, starting at the console's login, and stops where the provider sends the
 * browser back: the console's callback URL with its code and state (not yet called).
 */
export async function callbackUrl(
  client: APIRequestContext,
  baseUrl: string,
  person: OidcPerson,
): Promise<string> {
  let answer = await client.get(`${baseUrl}/login`, { maxRedirects: 0 });
  for (let step = 0; step < 10; step++) {
    const location = answer.headers().location;
    if (location?.startsWith(`${baseUrl}/callback`)) return location;
    if (location) answer = await client.get(new URL(location, answer.url()).href, { maxRedirects: 0 });
    else answer = await submitInteraction(client, answer, person);
  }
  throw new Error(`The provider never sent ${person.username} back to the console`);
}

/** The provider's login or consent page, submitted (its form's action, with the person's user name and password). */
async function submitInteraction(client: APIRequestContext, page: APIResponse, person: OidcPerson) {
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No form on ${page.url()} (${page.status()}): ${html.slice(0, 300)}`);
  const form = action.endsWith('/login') ? { username: person.username, password: person.password } : {};
  return client.post(new URL(action, page.url()).href, { form, maxRedirects: 0 });
}

/** The session's CSRF token, as the console's page reads it. */
export async function csrfToken(client: APIRequestContext, baseUrl: string): Promise<string> {
  const session = await client.get(`${baseUrl}/session`);
  return ((await session.json()) as { csrf_token: string }).csrf_token;
}
