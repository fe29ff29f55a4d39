import { retryAfterSeconds } from './api-error.js';
import { type IssuedToken, RenewingToken, type TokenSource } from './bearer.js';
import { type FetchFunction, globalFetch } from './fetch-function.js';

/** An OAuth 2.0 client of the authorization server that issues the import service's access tokens. */
export interface ClientCredentials {
  /** The token endpoint, e.g. `https://login.example.com/oauth/token`. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Default `service.imports`, the scope the import service requires. */
  scope?: string;
  /** RFC 8707 resource indicator, for servers that issue tokens per API (the import service's audience). */
  resource?: string;
  /** A token is renewed this many seconds before it expires (default 30). */
  renewBeforeSeconds?: number;
}

/** The token endpoint refused the client or answered something that is not a token. */
export class TokenRequestError extends Error {
  constructor(
    readonly status: number,
    /** The OAuth error body (`error`, `error_description`), or the answer's text. */
    readonly body: unknown,
    /** From the answer's Retry-After (a throttled client), else null. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`The token endpoint answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'TokenRequestError';
  }
}

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
}

/**
 * Access tokens by the client credentials grant (RFC 6749 §4.4, client_secret_basic), shared by all calls until
 * shortly before they expire (RenewingToken).
 */
export class ClientCredentialsTokens extends RenewingToken {
  constructor(
    credentials: ClientCredentials,
    send: FetchFunction = globalFetch,
    now: () => number = Date.now,
  ) {
    super(() => requestToken(credentials, send, now), credentials.renewBeforeSeconds, now);
  }
}

async function requestToken(
  credentials: ClientCredentials,
  send: FetchFunction,
  now: () => number,
): Promise<IssuedToken> {
  const { tokenUrl, clientId, clientSecret, scope = 'service.imports', resource } = credentials;
  const form = new URLSearchParams({ grant_type: 'client_credentials', scope });
  if (resource) form.set('resource', resource);
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
    'base64',
  );
  const response = await send(
    new Request(tokenUrl, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, Accept: 'application/json' },
      body: form,
    }),
  );
  const text = await response.text();
  const answer = parseJson(text) as TokenAnswer | undefined;
  if (!response.ok || typeof answer?.access_token !== 'string') {
    throw new TokenRequestError(response.status, answer ?? text, retryAfterSeconds(response));
  }
  const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 300;
  return { token: answer.access_token, expiresAt: now() + lifetime * 1000 };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * How a client of areas A and the administration gets its access token: a token as it is, a function answering one
 * (a token provider: the portal's own session, a secret store; asked for every call, so it decides what it caches),
 * or OAuth 2.0 client credentials.
 */
export type BearerAuth =
  { token: string | (() => string | Promise<string>) } | { credentials: ClientCredentials };

/** A token the caller gives: asked for at every call (concurrent calls share one answer of the provider). */
function givenToken(token: string | (() => string | Promise<string>)): TokenSource {
  const answer = typeof token === 'string' ? () => token : token;
  let pending: Promise<string> | null = null;
  return {
    token: () => (pending ??= Promise.resolve(answer()).finally(() => (pending = null))),
    invalidate: () => undefined,
  };
}

/**
 * The tokens of `auth`; client credentials ask for `scope` unless they name their own, over `send` (the token
 * request is timed as a call is).
 */
export function bearerTokens(auth: BearerAuth, scope: string, send: FetchFunction): TokenSource {
  return 'credentials' in auth
    ? new ClientCredentialsTokens({ ...auth.credentials, scope: auth.credentials.scope ?? scope }, send)
    : givenToken(auth.token);
}
