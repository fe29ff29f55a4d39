import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { escapeHtml } from '@broker/errors';

/** A person who logs in at the authorization server with a password: an operator, or a tenant's administrator. */
export interface OidcPerson {
  username: string;
  password: string;
  name: string;
  role: 'operator' | 'tenant-admin';
  /** The tenant a tenant administrator administers (the access token's `tenant` claim). */
  tenant?: string;
}

/** A web application people log in to with the authorization code grant (a confidential client, PKCE). */
export interface OidcWebClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

export const PERSON_SCOPES = { operator: 'platform.operator', 'tenant-admin': 'platform.admin' } as const;

const INTERACTION_PATH = /^\/interaction\/([\w-]+)(?:\/(login|consent))?$/;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="de"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function loginPage(uid: string, problem?: string): string {
  const alert = problem ? `<p role="alert">${escapeHtml(problem)}</p>` : '';
  return page(
    'Anmelden',
    `${alert}<form method="post" action="/interaction/${uid}/login">
<p><label for="username">Benutzername</label> <input id="username" name="username" autocomplete="username" required autofocus></p>
<p><label for="password">Passwort</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Anmelden</button></p></form>`,
  );
}

function consentPage(uid: string, clientId: string, scope: string): string {
  return page(
    'Zugriff erlauben',
    `<p>${escapeHtml(clientId)} möchte in Ihrem Namen handeln: ${escapeHtml(scope)}.</p>
<form method="post" action="/interaction/${uid}/consent"><p><button type="submit" autofocus>Erlauben</button></p></form>`,
  );
}

/** The logout confirmation (rpInitiatedLogout.logoutSource): the provider's form, in German and without fonts. */
export function logoutPage(form: string): string {
  return page(
    'Abmelden',
    `${form}<p><button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>Abmelden</button></p>`,
  );
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function answerHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(html);
}

/**
 * The login and consent pages of the provider's interactions (`/interaction/{uid}`): a person logs in with user name
 * and password; consent grants the OpenID scopes and, for the administration's resource, the person's own scope only.
 * Answers false for any other path.
 */
export async function handleInteraction(
  provider: Provider,
  people: OidcPerson[],
  adminResource: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const match = INTERACTION_PATH.exec(new URL(request.url ?? '/', 'http://op.invalid').pathname);
  if (!match) return false;
  const details = await provider.interactionDetails(request, response);
  const { uid, prompt, params } = details;
  if (request.method === 'GET') {
    const html =
      prompt.name === 'login'
        ? loginPage(uid)
        : consentPage(uid, String(params.client_id), String(params.scope));
    answerHtml(response, 200, html);
    return true;
  }
  if (match[2] === 'login') {
    const form = await formOf(request);
    const person = people.find((candidate) => candidate.username === form.get('username'));
    if (!person || person.password !== form.get('password')) {
      answerHtml(response, 401, loginPage(uid, 'Benutzername oder Passwort ist falsch.'));
      return true;
    }
    await provider.interactionFinished(request, response, { login: { accountId: person.username } });
    return true;
  }
  const person = people.find((candidate) => candidate.username === details.session?.accountId);
  if (!person) throw new Error('Consent without a logged-in person');
  const grant = new provider.Grant({ accountId: person.username, clientId: String(params.client_id) });
  // Both administration scopes are asked for; the person's own is granted, the other refused (so not asked again).
  const own = PERSON_SCOPES[person.role];
  const other = Object.values(PERSON_SCOPES).find((scope) => scope !== own)!;
  grant.addOIDCScope(`openid profile offline_access ${own}`);
  grant.rejectOIDCScope(other);
  grant.addResourceScope(adminResource, own);
  grant.rejectResourceScope(adminResource, other);
  await provider.interactionFinished(
    request,
    response,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
  return true;
}
