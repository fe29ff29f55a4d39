import { type FetchFunction, withHeaders } from './fetch-function.js';

/** A token and when it expires (milliseconds since 1970). */
export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/**
 * A bearer token shared by all calls, fetched anew `renewBeforeSeconds` before it expires (at most half its
 * lifetime early) or after `invalidate()`; concurrent calls that find none wait for the same request.
 */
export class RenewingToken {
  private current: { token: string; renewAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly renewBeforeSeconds = 30,
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    this.pending ??= this.renew().finally(() => (this.pending = null));
    return this.pending;
  }

  /** Forgets the token, e.g. after the service refused it. */
  invalidate(): void {
    this.current = null;
  }

  private async renew(): Promise<string> {
    const issuedAt = this.now();
    const { token, expiresAt } = await this.issue();
    const margin = Math.min(this.renewBeforeSeconds * 1000, (expiresAt - issuedAt) / 2);
    this.current = { token, renewAt: expiresAt - margin };
    return token;
  }
}

/**
 * Sends each request with `Authorization: Bearer` and a token of `tokens`. A 401 forgets the token, and the
 * request is sent once more with a new one when it can be replayed: it has no body, or `replayBodies` (small JSON
 * bodies; an upload's stream is sent once).
 */
export function bearerFetch(tokens: RenewingToken, send: FetchFunction, replayBodies = false): FetchFunction {
  return async (request) => {
    const replay = request.body === null || replayBodies ? request.clone() : null;
    const response = await send(withHeaders(request, { Authorization: `Bearer ${await tokens.token()}` }));
    if (response.status !== 401) return response;
    tokens.invalidate();
    if (!replay) return response;
    await response.body?.cancel();
    return send(withHeaders(replay, { Authorization: `Bearer ${await tokens.token()}` }));
  };
}
