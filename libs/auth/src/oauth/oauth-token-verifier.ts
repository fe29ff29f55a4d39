import { createPublicKey } from 'node:crypto';
import {
  createRemoteJWKSet,
  errors as joseErrors,
  type JWTPayload,
  jwtVerify,
  type JWTVerifyGetKey,
  type RemoteJWKSet,
} from 'jose';
import { DomainError, ErrorCode, isStorableText } from '@broker/errors';

export interface OAuthSettings {
  issuer: string;
  audience: string;
  /** The authorization server's JWKS endpoint; or else `publicKeyPem`. */
  jwksUrl?: string;
  publicKeyPem?: string;
  /** Accepted signature algorithms; a token signed otherwise (or with `none`) is refused. */
  algorithms: string[];
  requiredScope: string;
  /** How long keys read from `jwksUrl` are used before the set is read again: a removed key's bound (default 5 min). */
  jwksMaxAgeMs?: number;
  /** Told when the JWKS cannot be read (unreachable, an error status, not a key set): for the log. */
  onKeySourceFault?: (jwksUrl: string, error: unknown) => void;
}

/** A token signed with a key the cached set lacks makes the set be read again, at most this often. */
export const JWKS_REFETCH_COOLDOWN_MS = 5_000;
/** Keys are used this long before the set is read again, unless configured otherwise. */
export const DEFAULT_JWKS_MAX_AGE_MS = 5 * 60_000;
/** A JWKS answer slower than this counts as a fault of the authorization server. */
const JWKS_TIMEOUT_MS = 5_000;
/** An unreadable key set is told (logged) at most this often. */
const FAULT_TOLD_EVERY_MS = 10_000;
/** What a refused request is asked to wait when the authorization server's keys cannot be read. */
const KEY_SOURCE_RETRY_AFTER_SECONDS = 5;

/** Who called: a person or a service account, always acting for one broker of one tenant. */
export interface OAuthPrincipal {
  kind: 'user' | 'service';
  tenantCode: string;
  brokerNumber: string;
  /** `sub` for a person, `client_id` for a service account. */
  subject: string;
}

/** The scopes of administration tokens: never accepted by an area's API, as an import token is never an admin's. */
export const ADMIN_SCOPES = ['platform.admin', 'platform.operator'] as const;
/** The scope of import tokens (area A). */
export const IMPORT_SCOPE = 'service.imports';

export function invalidToken(description: string): DomainError {
  return new DomainError(ErrorCode.AuthenticationFailed, description, [], {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });
}

export function insufficientScope(scope: string): DomainError {
  return new DomainError(ErrorCode.InsufficientScope, `The token lacks the scope ${scope}`, [], {
    'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
  });
}

/** Scopes from `scope` (space-separated string) or `scp` (array), as authorization servers differ. */
export function scopesOf(payload: JWTPayload): string[] {
  const scopes: string[] = [];
  if (typeof payload.scope === 'string') scopes.push(...payload.scope.split(' ').filter(Boolean));
  if (Array.isArray(payload.scp))
    scopes.push(...payload.scp.filter((s): s is string => typeof s === 'string'));
  return scopes;
}

export function stringClaim(payload: JWTPayload, claim: string): string | undefined {
  const value = payload[claim];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Longer subjects, clients, tenants or brokers than any authorization server issues are refused, not looked up. */
const MAX_CLAIM_LENGTH = 256;

/**
 * A claim the platform looks up or stores (tenant, broker, subject, client): text PostgreSQL can hold (no NUL, no
 * lone surrogate) of at most MAX_CLAIM_LENGTH characters; otherwise the token is invalid (401), wherever the
 * claim would have reached SQL.
 */
export function storableClaim(payload: JWTPayload, claim: string): string | undefined {
  const value = stringClaim(payload, claim);
  if (value !== undefined && (!isStorableText(value) || value.length > MAX_CLAIM_LENGTH))
    throw invalidToken(`The token's ${claim} claim is not accepted`);
  return value;
}

/**
 * Whether verifying failed because the key set could not be read, rather than because of the token: an error
 * jose raises for the HTTP answer (timeout, status, not JSON, not a key set) or one from the request itself
 * (refused connection, DNS), which is no JOSE error at all.
 */
function isKeySourceFault(error: unknown): boolean {
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) return true;
  if (!(error instanceof joseErrors.JOSEError)) return true;
  return error.code === 'ERR_JOSE_GENERIC' && /JSON Web Key Set/.test(error.message);
}

function describeVerificationFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `The token's ${error.claim} claim is not accepted`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return 'The token is signed with an algorithm that is not accepted';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The token signature is not valid';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'The token was signed with an unknown key';
  return 'The token is not a valid JWT';
}

/**
 * Verifies OAuth 2.0 bearer tokens of the external authorization server: signature (JWKS or a configured
 * public key, allowed algorithms only), issuer, audience, expiry, and the required scope.
 */
export class OAuthTokenVerifier {
  private readonly key: JWTVerifyGetKey;
  private readonly remote: RemoteJWKSet | undefined;
  /** When the last key-source fault was told, so an outage is not told once per request. */
  private faultToldAt = 0;

  constructor(private readonly settings: OAuthSettings) {
    if (settings.jwksUrl) {
      this.remote = createRemoteJWKSet(new URL(settings.jwksUrl), {
        cooldownDuration: JWKS_REFETCH_COOLDOWN_MS,
        cacheMaxAge: settings.jwksMaxAgeMs ?? DEFAULT_JWKS_MAX_AGE_MS,
        timeoutDuration: JWKS_TIMEOUT_MS,
      });
      this.key = this.remote;
    } else if (settings.publicKeyPem) {
      const publicKey = createPublicKey(settings.publicKeyPem);
      this.key = () => publicKey;
    } else throw new Error('OAuth verification needs a JWKS URL or a public key');
  }

  /** The caller of an area's API: a valid token with the required scope, and no administration scope. */
  async verify(authorization: string | undefined): Promise<OAuthPrincipal> {
    const payload = await this.verifyToken(authorization);
    const scopes = scopesOf(payload);
    if (scopes.some((scope) => (ADMIN_SCOPES as readonly string[]).includes(scope)))
      throw invalidToken('An administration token is not accepted here');
    if (!scopes.includes(this.settings.requiredScope)) throw insufficientScope(this.settings.requiredScope);
    return this.principalOf(payload);
  }

  /** The claims of a valid bearer token (signature, issuer, audience, expiry), whatever its scopes. */
  async verifyToken(authorization: string | undefined): Promise<JWTPayload> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw invalidToken('A bearer token is required');
    return this.verifiedPayload(token);
  }

  private async verifiedPayload(token: string): Promise<JWTPayload> {
    const options = {
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      algorithms: this.settings.algorithms,
      requiredClaims: ['exp'],
    };
    try {
      const { payload } = await jwtVerify(token, this.key, options);
      return payload;
    } catch (error) {
      // With a key set in hand that is still fresh, a fault reading the keys again can only have come from looking
      // for the token's key, which that set lacks: the token's fault (401), outage or not.
      if (this.settings.jwksUrl && isKeySourceFault(error) && !this.remote?.fresh)
        throw this.keySourceFault(this.settings.jwksUrl, error);
      throw invalidToken(
        isKeySourceFault(error)
          ? 'The token was signed with an unknown key'
          : describeVerificationFailure(error),
      );
    }
  }

  /** The keys cannot be read: a fault of the server side, not of the caller's token (503, Retry-After). */
  private keySourceFault(jwksUrl: string, error: unknown): DomainError {
    if (Date.now() - this.faultToldAt >= FAULT_TOLD_EVERY_MS) {
      this.faultToldAt = Date.now();
      this.settings.onKeySourceFault?.(jwksUrl, error);
    }
    return new DomainError(
      ErrorCode.DependencyUnavailable,
      "The authorization server's keys cannot be read; try again later",
      [],
      { 'Retry-After': String(KEY_SOURCE_RETRY_AFTER_SECONDS) },
    );
  }

  private principalOf(payload: JWTPayload): OAuthPrincipal {
    const tenantCode = storableClaim(payload, 'tenant');
    const brokerNumber = storableClaim(payload, 'broker_id');
    if (!tenantCode || !brokerNumber) throw invalidToken('The token names no tenant or broker');
    const clientId = storableClaim(payload, 'client_id');
    const subject = storableClaim(payload, 'sub');
    const isServiceAccount = clientId !== undefined && (payload.sub === undefined || subject === clientId);
    if (isServiceAccount) return { kind: 'service', tenantCode, brokerNumber, subject: clientId };
    if (!subject) throw invalidToken('The token names no subject');
    return { kind: 'user', tenantCode, brokerNumber, subject };
  }
}
