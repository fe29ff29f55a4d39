import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { type FetchFunction, withHeaders } from './fetch-function.js';

/** An API client of the broker service (area C): its id and key. */
export interface ApiCredentials {
  apiId: string;
  apiKey: string;
  /**
   * `digest` (default): a timestamp, a fresh nonce and sha1(nonce + timestamp + key) per request, each accepted
   * once. `otp`: the 8-digit TOTP of the key.
   */
  proof?: 'digest' | 'otp';
}

/**
 * The server refuses a timestamp more than 30 s from its clock; its `Date` has whole seconds. A 400 to a request
 * signed further than this from the answer's `Date` was refused for the clock.
 */
const CLOCK_REFUSAL_MS = 29_000;

/**
 * Signs each request with the header group of area C, on the server's clock: every answer's `Date` header gives
 * the offset of the local clock (to a second), and a request refused (400) because it was signed with a time
 * too far from the server's is signed anew and sent once more. Requests in flight when the offset is learned are
 * each judged by the time they were signed with, so none of them is lost to the skew.
 */
export class HeaderGroupSigner {
  private offsetMs = 0;

  constructor(
    private readonly credentials: ApiCredentials,
    private readonly now: () => number = Date.now,
  ) {}

  fetch(send: FetchFunction): FetchFunction {
    return async (request) => {
      const replay = request.clone();
      const signedAt = this.serverNow();
      const response = await send(withHeaders(request, this.headers(signedAt)));
      const serverTime = this.learnOffset(response);
      if (
        response.status !== 400 ||
        serverTime === null ||
        Math.abs(serverTime - signedAt) < CLOCK_REFUSAL_MS
      )
        return response;
      await response.body?.cancel();
      return send(withHeaders(replay, this.headers(this.serverNow())));
    };
  }

  /** The header group for one request signed at `time` (default: now, on the server's clock). */
  headers(time = this.serverNow()): Record<string, string> {
    const { apiId, apiKey, proof = 'digest' } = this.credentials;
    if (proof === 'otp') return { 'X-Svc-Api-Id': apiId, 'X-Svc-Otp': oneTimePassword(apiKey, time) };
    const timestamp = new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const nonce = randomBytes(20).toString('hex');
    const digest = createHash('sha1')
      .update(nonce + timestamp + apiKey)
      .digest('hex');
    return {
      'X-Svc-Api-Id': apiId,
      'X-Svc-Timestamp': timestamp,
      'X-Svc-Nonce': nonce,
      'X-Svc-Digest': digest,
    };
  }

  private serverNow(): number {
    return this.now() + this.offsetMs;
  }

  /** Takes the server's clock from the answer's `Date`; returns that time, or null without one. */
  private learnOffset(response: Response): number | null {
    const serverTime = Date.parse(response.headers.get('Date') ?? '');
    if (Number.isNaN(serverTime)) return null;
    const offset = serverTime - this.now();
    // Date has whole seconds: keep the offset while it explains the answer.
    if (Math.abs(offset - this.offsetMs) >= 2_000) this.offsetMs = offset;
    return serverTime;
  }
}

/** RFC 6238 TOTP as the service checks it: SHA-1, 8 digits, 30 s, the API key's UTF-8 bytes as the secret. */
function oneTimePassword(apiKey: string, timestamp: number): string {
  return TOTP.generate({
    secret: Secret.fromUTF8(apiKey),
    algorithm: 'SHA1',
    digits: 8,
    period: 30,
    timestamp,
  });
}
