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

/** The server refuses a timestamp more than 30 s away from its clock; a skew beyond this is corrected. */
const SKEW_TO_CORRECT_MS = 10_000;

/**
 * Signs each request with the header group of area C. The clock is the server's: every answer's `Date` header
 * gives the offset of the local clock (to a second), and a request refused (400) while the local clock was more
 * than SKEW_TO_CORRECT_MS off is signed anew with the server's time and sent once more.
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
      const response = await send(withHeaders(request, this.headers()));
      const correction = this.learnOffset(response);
      if (response.status !== 400 || Math.abs(correction) < SKEW_TO_CORRECT_MS) return response;
      await response.body?.cancel();
      return send(withHeaders(replay, this.headers()));
    };
  }

  /** The header group for one request at the server's time. */
  headers(): Record<string, string> {
    const { apiId, apiKey, proof = 'digest' } = this.credentials;
    const time = this.now() + this.offsetMs;
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

  /** Takes the server's clock from the answer; returns how much the offset changed. */
  private learnOffset(response: Response): number {
    const serverTime = Date.parse(response.headers.get('Date') ?? '');
    if (Number.isNaN(serverTime)) return 0;
    const offset = serverTime - this.now();
    // Date has whole seconds: keep the old offset when it explains the answer.
    if (Math.abs(offset - this.offsetMs) < 2_000) return 0;
    const change = offset - this.offsetMs;
    this.offsetMs = offset;
    return change;
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
