import createClient, { type Client } from 'openapi-fetch';
import { must } from './api-error.js';
import { bearerFetch, RenewingToken } from './bearer.js';
import { type FetchFunction, globalFetch } from './fetch-function.js';
import type { components, paths } from './generated/calc-api.js';

export type PrivateLiabilityCalculationRequest = components['schemas']['PrivateLiabilityCalculationRequest'];
export type PrivateLiabilityCalculationResponse =
  components['schemas']['PrivateLiabilityCalculationResponse'];

export interface CalcClientOptions {
  /** The calculation service's base, e.g. `https://gateway.example.com/api`. */
  baseUrl: string;
  username: string;
  password: string;
  /** The token is renewed (by logging in again) this many seconds before it expires (default 30). */
  renewBeforeSeconds?: number;
  fetch?: FetchFunction;
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
    const { token } = await must(login.POST('/login', { body: { username, password } }));
    return { token, expiresAt: expiryOf(token) ?? Date.now() + 60_000 };
  }, renewBeforeSeconds);
}

/** The `exp` claim of a JWT in milliseconds (read, not verified: the service verifies it). */
function expiryOf(token: string): number | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** A client of the calculation service (area B) that logs in when it needs a token. */
export function createCalcClient(options: CalcClientOptions): CalcClient {
  const send = options.fetch ?? globalFetch;
  const login = createClient<paths>({ baseUrl: options.baseUrl, fetch: send });
  const tokens = loginTokens(login, options);
  return { api: createClient<paths>({ baseUrl: options.baseUrl, fetch: bearerFetch(tokens, send, true) }) };
}
