import { type FetchFunction, withHeaders } from './fetch-function.js';

/** A token and when it expires (milliseconds since 1970). */
export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/** A refused token request is not repeated for this long, unless the refusal says when (Retry-After). */
const REFUSAL_HOLD_SECONDS = 60;

/** An error of a token request the server refused (a 4xx with its status and Retry-After, if any). */
interface Refusal {
  status: number;
  retryAfterSeconds?: number | null;
}

function isRefusal(error: unknown): error is Refusal {
  const status = (error as Partial<Refusal> | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Where a client's calls get their bearer token, and are told when the service refused one. */
export interface TokenSource {
  token(): Promise<string>;
  invalidate(refused: string): void;
}

/**
 * A bearer token shared by all calls, fetched anew `renewBeforeSeconds` before it expires (at most half its
 * lifetime early) or after `invalidate()`; concurrent calls that find none wait for the same request. A request
 * the server refused (wrong credentials, a login throttled) is answered with the same error, without asking
 * again, until its Retry-After or REFUSAL_HOLD_SECONDS have passed: retrying a wrong password would only get the
 * user locked out.
 */
export class RenewingToken implements TokenSource {
  private current: { token: string; renewAt: number } | null = null;
  private pending: Promise<string> | null = null;
  private refused: { error: unknown; until: number } | null = null;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly renewBeforeSeconds = 30,
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    if (this.refused && this.now() < this.refused.until) throw this.refused.error;
    this.pending ??= this.renew().finally(() => (this.pending = null));
    return this.pending;
  }

  /** Forgets `refused` (the service did not take it), unless another call has renewed it meanwhile. */
  invalidate(refused: string): void {
    if (this.current?.token === refused) this.current = null;
  }

  private async renew(): Promise<string> {
    const issuedAt = this.now();
    try {
      const { token, expiresAt } = await this.issue();
      const margin = Math.min(this.renewBeforeSeconds * 1000, (expiresAt - issuedAt) / 2);
      this.current = { token, renewAt: expiresAt - margin };
      this.refused = null;
      return token;
    } catch (error) {
      if (isRefusal(error)) {
        const seconds = error.retryAfterSeconds ?? REFUSAL_HOLD_SECONDS;
        this.refused = { error, until: this.now() + seconds * 1000 };
      }
      throw error;
    }
  }
}

/**
 * Sends each request with `Authorization: Bearer` and a token of `tokens`. A 401 forgets the token, and the
 * request is sent once more with a new one when it can be replayed: it has no body, or `replayBodies` (small JSON
 * bodies; an upload's stream is sent once).
 */
export function bearerFetch(tokens: TokenSource, send: FetchFunction, replayBodies = false): FetchFunction {
  return async (request) => {
    const replay = request.body === null || replayBodies ? request.clone() : null;
    const token = await tokens.token();
    const response = await send(withHeaders(request, { Authorization: `Bearer ${token}` }));
    if (response.status !== 401) return response;
    tokens.invalidate(token);
    if (!replay) return response;
    await response.body?.cancel();
    return send(withHeaders(replay, { Authorization: `Bearer ${await tokens.token()}` }));
  };
}
