import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { exportJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import { DomainError, ErrorCode } from '@broker/errors';
import { BoundedCache } from '../bounded-cache.js';

export interface LoginTokenSettings {
  /** PKCS#8 PEM of the RSA signing key; the public half is derived from it. */
  privateKeyPem: string;
  keyId: string;
  issuer: string;
  ttlSeconds: number;
  /** Verified tokens remembered (until they expire) so a repeated token skips the RSA check; 0 disables. */
  verifiedCacheSize?: number;
}

/** Who a login token was issued to. */
export interface LoginPrincipal {
  userId: string;
  username: string;
  tenant: string;
}

/** The holder of a verified token, and when the token was issued (seconds since 1970, its `iat`). */
export interface VerifiedLogin extends LoginPrincipal {
  issuedAtSeconds: number;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

const ALGORITHM = 'RS256';
const DEFAULT_VERIFIED_CACHE_SIZE = 10_000;

interface VerifiedToken {
  principal: VerifiedLogin;
  expiresAtMs: number;
}

/** The 401 of a refused login token, with its bearer challenge. */
export const invalidLoginToken = (message: string) =>
  new DomainError(ErrorCode.AuthenticationFailed, message, [], {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message}"`,
  });

/**
 * Area B tokens: RS256 JWTs this service signs at login (subject = user id, `name`, `tenant`, `exp`) and verifies on
 * every calculation; the public key is published as a JWKS.
 */
export class LoginTokenService {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /**
   * A token's signature cannot change, so once verified it stays valid until its `exp`: clients send the same
   * token with every calculation, and the RSA verification is the most expensive step of a request.
   */
  private readonly verified: BoundedCache<string, VerifiedToken>;

  constructor(private readonly settings: LoginTokenSettings) {
    this.verified = new BoundedCache(settings.verifiedCacheSize ?? DEFAULT_VERIFIED_CACHE_SIZE);
    this.privateKey = createPrivateKey(settings.privateKeyPem);
    if (this.privateKey.asymmetricKeyType !== 'rsa')
      throw new Error('The login token key must be an RSA key');
    this.publicKey = createPublicKey(this.privateKey);
  }

  async issue(principal: LoginPrincipal, now = new Date()): Promise<IssuedToken> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = issuedAt + this.settings.ttlSeconds;
    const token = await new SignJWT({ name: principal.username, tenant: principal.tenant })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.settings.keyId, typ: 'JWT' })
      .setSubject(principal.userId)
      .setIssuer(this.settings.issuer)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.privateKey);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  /** The principal of a valid token; a 401 for a missing, malformed, expired or foreign one. */
  async verify(token: string | undefined): Promise<VerifiedLogin> {
    if (!token) throw invalidLoginToken('A bearer token is required');
    const known = this.verified.get(token);
    if (known && known.expiresAtMs > Date.now()) return known.principal;
    if (known) this.verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        algorithms: [ALGORITHM],
        issuer: this.settings.issuer,
        requiredClaims: ['sub', 'exp', 'iat', 'name', 'tenant'],
      });
      if (typeof payload.name !== 'string' || typeof payload.tenant !== 'string')
        throw invalidLoginToken('The token lacks its user name or tenant');
      const principal = {
        userId: payload.sub!,
        username: payload.name,
        tenant: payload.tenant,
        issuedAtSeconds: payload.iat!,
      };
      this.verified.set(token, { principal, expiresAtMs: payload.exp! * 1000 });
      return principal;
    } catch (error) {
      if (error instanceof DomainError) throw error;
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw invalidLoginToken(expired ? 'The token has expired; log in again' : 'The token is not valid');
    }
  }

  /** The public key as a JSON Web Key Set. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const jwk = await exportJWK(this.publicKey);
    return { keys: [{ ...jwk, kid: this.settings.keyId, alg: ALGORITHM, use: 'sig' }] };
  }
}
