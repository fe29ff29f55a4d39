import type { JWTPayload } from 'jose';
import {
  ADMIN_SCOPES,
  IMPORT_SCOPE,
  insufficientScope,
  invalidToken,
  type OAuthTokenVerifier,
  scopesOf,
  storableClaim,
} from '@broker/auth';

export const OPERATOR_SCOPE = 'platform.operator';
export const TENANT_ADMIN_SCOPE = 'platform.admin';

/**
 * Who administers: an operator of the pool (scope platform.operator: every tenant, and only it creates tenants) or
 * the administrator of one tenant (scope platform.admin with the claim `tenant`).
 */
export interface AdminPrincipal {
  role: 'operator' | 'tenant-admin';
  /** The tenant a tenant administrator administers; null for an operator. */
  tenantCode: string | null;
  /** The token's subject (a person, or the service account's client id). */
  subject: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`), if it says. */
  client: string | null;
}

/** The administrator a token names. An import token (scope service.imports, or a broker claim) never is one. */
function principalOf(payload: JWTPayload): AdminPrincipal {
  const scopes = scopesOf(payload);
  if (scopes.includes(IMPORT_SCOPE) || payload.broker_id !== undefined)
    throw invalidToken('An import token is not an administration token');
  const client = storableClaim(payload, 'client_id') ?? storableClaim(payload, 'azp') ?? null;
  const subject = storableClaim(payload, 'sub') ?? client;
  if (!subject) throw invalidToken('The token names no subject');
  if (scopes.includes(OPERATOR_SCOPE)) return { role: 'operator', tenantCode: null, subject, client };
  if (!scopes.includes(TENANT_ADMIN_SCOPE)) throw insufficientScope(ADMIN_SCOPES.join(' or '));
  const tenantCode = storableClaim(payload, 'tenant');
  if (!tenantCode) throw invalidToken('The token names no tenant');
  return { role: 'tenant-admin', tenantCode, subject, client };
}

/** The administrator of an `Authorization: Bearer` header: a valid token of the authorization server, read as above. */
export async function authenticateAdmin(
  verifier: OAuthTokenVerifier,
  authorization: string | undefined,
): Promise<AdminPrincipal> {
  return principalOf(await verifier.verifyToken(authorization));
}
