import { createHash, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { DateParseError, parseTimestampHeader } from '@broker/datetime';
import { DomainError, ErrorCode } from '@broker/errors';
import type { ApiClientCredentials, ApiClientDirectory, ClientEmployee } from './api-client-directory.js';
import type { NonceStore } from './nonce-store.js';
import type { OtpFailures } from './otp-failures.js';

/** An OTP proof refused for guessing: too many wrong ones (`throttled`), or a wrong one (`wrong`). */
export interface OtpRefusal {
  apiId: string;
  reason: 'wrong' | 'throttled';
}

/** Who called: the API client and the broker it acts for. */
export interface SvcPrincipal {
  tenantId: string;
  tenantCode: string;
  brokerId: string;
  brokerNumber: string;
  apiClientId: string;
  /** The client's API id (X-Svc-Api-Id), as the audit trail names the client. */
  apiId: string;
  /** The employee named by the request's path, read with the client; not yet checked (see EmployeeScopeGuard). */
  employee?: ClientEmployee;
}

/** The authentication headers of area C as received (lower-case names, as Node gives them). */
export type SvcHeaders = Partial<Record<string, string | string[]>>;

/** A timestamp may be this much older or newer than the server's clock. */
export const TIMESTAMP_WINDOW_MS = 30_000;
/** Long enough that a nonce stays remembered while its timestamp is acceptable (±30 s), plus slack. */
const NONCE_MEMORY_MS = 2 * TIMESTAMP_WINDOW_MS + 1_000;

const API_ID = /^[\x21-\x7e]{1,128}$/;
const NONCE = /^[0-9a-f]{40}$/;
/** A timestamp that names its offset (`Z` or `±hh:mm` at its end). */
const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/;
const DIGEST = /^[0-9a-f]{40}$/;
const OTP = /^\d{8}$/;

const invalid = (message: string) => new DomainError(ErrorCode.AuthenticationHeadersInvalid, message);

function single(headers: SvcHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) throw invalid(`Header ${name} is sent more than once`);
  return value === undefined || value === '' ? undefined : value;
}

function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

interface DigestHeaders {
  kind: 'digest';
  timestamp: string;
  nonce: string;
  digest: string;
}

interface OtpHeaders {
  kind: 'otp';
  otp: string;
}

/**
 * The header group of area C: `X-Svc-Api-Id` with either `X-Svc-Timestamp`, `X-Svc-Nonce` and
 * `X-Svc-Digest` = hex sha1(nonce + timestamp + apiKey) over the values as sent, or `X-Svc-Otp` = TOTP (RFC 6238,
 * SHA-1, 8 digits, 30 s, one step of tolerance) with the API key's UTF-8 bytes as the secret.
 * Implausible or wrong headers are a 400, an unknown API id a 404, a blocked client or broker a 403. After a key
 * rotation, the key it replaced is accepted beside the new one until its validity ends.
 */
export class HeaderGroupVerifier {
  constructor(
    private readonly directory: ApiClientDirectory,
    private readonly nonces: NonceStore,
    private readonly otpFailures: OtpFailures,
    /** Told of every refused OTP proof (for metrics and the log; it carries no secret). */
    private readonly onOtpRefusal: (refusal: OtpRefusal) => void = () => undefined,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** `employeeCode`: the employee the request's path names, looked up with the client (see SvcPrincipal). */
  async verify(
    tenantCode: string,
    headers: SvcHeaders,
    zone?: string,
    employeeCode?: string,
  ): Promise<SvcPrincipal> {
    const apiId = single(headers, 'X-Svc-Api-Id');
    if (!apiId) throw invalid('Header X-Svc-Api-Id is missing');
    if (!API_ID.test(apiId)) throw invalid('Header X-Svc-Api-Id is not an API id');
    const proof = this.proofOf(headers, zone);
    const client = await this.directory.find(tenantCode, apiId, employeeCode);
    if (!client) throw DomainError.notFound(`API id ${apiId} does not exist`);
    // The proof first: whether a client or its broker is blocked is told only to the client itself.
    if (proof.kind === 'otp') await this.checkOtp(apiId, proof, client);
    else await this.checkDigest(proof, client);
    if (client.clientBlocked) throw new DomainError(ErrorCode.Forbidden, `API client ${apiId} is blocked`);
    if (client.brokerBlocked)
      throw new DomainError(ErrorCode.Forbidden, `Broker ${client.brokerNumber} is blocked`);
    return {
      tenantId: client.tenantId,
      tenantCode,
      brokerId: client.brokerId,
      brokerNumber: client.brokerNumber,
      apiClientId: client.apiClientId,
      apiId,
      employee: client.employee,
    };
  }

  /** The headers' form, checked before any lookup: a malformed request costs no database round trip. */
  private proofOf(headers: SvcHeaders, zone: string | undefined): DigestHeaders | OtpHeaders {
    const otp = single(headers, 'X-Svc-Otp');
    const timestamp = single(headers, 'X-Svc-Timestamp');
    const nonce = single(headers, 'X-Svc-Nonce');
    const digest = single(headers, 'X-Svc-Digest');
    if (otp !== undefined) {
      if (timestamp ?? nonce ?? digest)
        throw invalid('Send either X-Svc-Otp or X-Svc-Timestamp, X-Svc-Nonce and X-Svc-Digest, not both');
      if (!OTP.test(otp)) throw invalid('Header X-Svc-Otp is not an 8-digit one-time password');
      return { kind: 'otp', otp };
    }
    if (!timestamp || !nonce || !digest)
      throw invalid('Headers X-Svc-Timestamp, X-Svc-Nonce and X-Svc-Digest, or X-Svc-Otp, are required');
    this.checkTimestamp(timestamp, zone);
    if (!NONCE.test(nonce)) throw invalid('Header X-Svc-Nonce is not 40 lower-case hexadecimal characters');
    if (!DIGEST.test(digest))
      throw invalid('Header X-Svc-Digest is not a lower-case hexadecimal SHA-1 digest');
    return { kind: 'digest', timestamp, nonce, digest };
  }

  /**
   * The instant a timestamp names must follow from its text alone, which the digest signs: an offset-less one is
   * read in Europe/Berlin, never in the zone of X-Svc-Timezone (which the digest does not sign: naming another
   * zone would make a stale request fresh again, hours later, after its nonce was forgotten).
   */
  private checkTimestamp(timestamp: string, zone: string | undefined): void {
    if (zone !== undefined && !HAS_OFFSET.test(timestamp))
      throw invalid(
        'Header X-Svc-Timestamp without an offset is read in Europe/Berlin, whatever X-Svc-Timezone says: ' +
          'send it with its offset (for example 2026-11-29T18:15:00+09:00)',
      );
    let sent: Date;
    try {
      sent = parseTimestampHeader(timestamp);
    } catch (error) {
      if (error instanceof DateParseError) throw invalid('Header X-Svc-Timestamp is not a date-time');
      throw error;
    }
    if (Math.abs(this.now() - sent.getTime()) > TIMESTAMP_WINDOW_MS)
      throw invalid('Header X-Svc-Timestamp is more than 30 seconds away from the server time');
  }

  /** The client's current key, and the key a rotation replaced while it is still valid. */
  private keysOf(client: ApiClientCredentials): string[] {
    const previous = client.previousKey;
    return previous && previous.validUntil.getTime() > this.now()
      ? [client.apiKey, previous.apiKey]
      : [client.apiKey];
  }

  private async checkDigest(proof: DigestHeaders, client: ApiClientCredentials): Promise<void> {
    const matches = this.keysOf(client).some((apiKey) =>
      sameText(proof.digest, sha1Hex(proof.nonce + proof.timestamp + apiKey)),
    );
    if (!matches) throw invalid('Header X-Svc-Digest does not match');
    if (!(await this.nonces.claim(`${client.apiClientId}:${proof.nonce}`, NONCE_MEMORY_MS)))
      throw invalid('Header X-Svc-Nonce was already used');
  }

  /**
   * An OTP is checked only while its client has not sent too many wrong ones (OtpFailures); after that, OTP proofs
   * get 429 with Retry-After until the window ends, whether right or wrong. The digest form stays usable: its
   * 160-bit key cannot be guessed, so a guesser cannot lock a client out of its own API.
   */
  private async checkOtp(apiId: string, proof: OtpHeaders, client: ApiClientCredentials): Promise<void> {
    const blockedFor = await this.otpFailures.reserve(client.apiClientId);
    if (blockedFor > 0) {
      this.onOtpRefusal({ apiId, reason: 'throttled' });
      throw new DomainError(
        ErrorCode.RateLimited,
        `Too many wrong one-time passwords for API id ${apiId}; send the digest headers or try again later`,
        [],
        { 'Retry-After': String(blockedFor) },
      );
    }
    if (this.validOtp(proof, client)) {
      await this.otpFailures.release(client.apiClientId);
      return;
    }
    this.onOtpRefusal({ apiId, reason: 'wrong' });
    throw invalid('Header X-Svc-Otp is not valid');
  }

  private validOtp(proof: OtpHeaders, client: ApiClientCredentials): boolean {
    return this.keysOf(client).some(
      (apiKey) =>
        TOTP.validate({
          token: proof.otp,
          secret: Secret.fromUTF8(apiKey),
          algorithm: 'SHA1',
          digits: 8,
          period: 30,
          window: 1,
          timestamp: this.now(),
        }) !== null,
    );
  }
}

/** The one-time password a client computes from its API key (for tests and the development token tool). */
export function svcOtp(apiKey: string, timestamp = Date.now()): string {
  return TOTP.generate({
    secret: Secret.fromUTF8(apiKey),
    algorithm: 'SHA1',
    digits: 8,
    period: 30,
    timestamp,
  });
}

/** The digest a client computes over the header values it sends. */
export function svcDigest(nonce: string, timestamp: string, apiKey: string): string {
  return sha1Hex(nonce + timestamp + apiKey);
}
