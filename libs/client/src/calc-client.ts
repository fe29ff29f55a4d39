import createClient, { type Client } from 'openapi-fetch';
import { must } from './api-error.js';
import { bearerFetch, RenewingToken } from './bearer.js';
import { globalFetch } from './fetch-function.js';
import type { components, paths } from './generated/calc-api.js';
import { timedFetch, type TransportOptions, transportFetch } from './transport.js';

export type PrivateLiabilityCalculationRequest = components['schemas']['PrivateLiabilityCalculationRequest'];
export type PrivateLiabilityCalculationResponse =
  components['schemas']['PrivateLiabilityCalculationResponse'];

export interface CalcClientOptions extends TransportOptions {
  /** The calculation service's base, e.g. `https://gateway.example.com/api`. */
  baseUrl: string;
  username: string;
  password: string;
  /** The token is renewed (by logging in again) this many seconds before it expires (default 30). */
  renewBeforeSeconds?: number;
}

export interface CalcClient {
  /** The typed client of every operation of the calculation document. */
  api: Client<paths>;
}

/**
 * Tokens of the calculation service: renewing means logging in again (spec, area B), shortly before the token's
 * `exp` or when the service refused it. Concurrent calls share one login.
 */
function loginTokens(login: Client<paths>, options: CalcClientOptions): RenewingToken {
  const { username, password, renewBeforeSeconds } = options;
  return new RenewingToken(async () => {
    const loggedInAt = Date.now();
    const { token } = await must(login.POST('/login', { body: { username, password } }));
    return { token, expiresAt: loggedInAt + lifetimeOf(token) };
  }, renewBeforeSeconds);
}

/**
 * How long a JWT is valid (`exp` − `iat`, read, not verified: the service verifies it), counted from the local
 * time of the login, so a client clock that differs from the service's does not shorten or stretch it; one minute
 * when the token does not say.
 */
function lifetimeOf(token: string): number {
  try {
    const { exp, iat } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
      iat?: unknown;
    };
    if (typeof exp === 'number' && typeof iat === 'number' && exp > iat) return (exp - iat) * 1000;
  } catch {
    // not a JWT this client can read: the default below
  }
  return 60_000;
}

/** A client of the calculation service (area B) that logs in when it needs a token. */
export function createCalcClient(options: CalcClientOptions): CalcClient {
  const send = options.fetch ?? globalFetch;
  // The login is timed but never repeated: a throttled login waits for its Retry-After (RenewingToken holds it).
  const login = createClient<paths>({ baseUrl: options.baseUrl, fetch: timedFetch(send, options) });
  const tokens = loginTokens(login, options);
  return {
    api: createClient<paths>({
      baseUrl: options.baseUrl,
      fetch: transportFetch(bearerFetch(tokens, send, true), options),
    }),
  };
}
