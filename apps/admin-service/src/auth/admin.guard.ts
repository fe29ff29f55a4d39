import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { AuditActor, WriteContext } from '@broker/administration';
import { insufficientScope, OAuthTokenVerifier } from '@broker/auth';
import { DomainError } from '@broker/errors';
import { ClientAddresses } from '@broker/platform';
import { type AdminPrincipal, authenticateAdmin, OPERATOR_SCOPE } from './admin-principal.js';

type AdminRequest = Request & { adminPrincipal?: AdminPrincipal; adminActor?: AuditActor };

const OPERATOR_ONLY = 'admin:operatorOnly';

/** An operation only an operator may call (creating tenants): a tenant administrator gets 403. */
export const OperatorOnly = () => SetMetadata(OPERATOR_ONLY, true);

/**
 * Every administration route: a valid administration token; an operation marked OperatorOnly needs the operator's
 * scope; a route under `/tenants/{tenant}` is open to operators and to that tenant's administrator only. Another
 * tenant is answered 404, as a tenant that does not exist, so a tenant administrator learns nothing of the others.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    @Inject(OAuthTokenVerifier) private readonly verifier: OAuthTokenVerifier,
    private readonly reflector: Reflector,
    private readonly addresses: ClientAddresses,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const principal = await authenticateAdmin(this.verifier, request.headers.authorization);
    if (this.reflector.get<boolean>(OPERATOR_ONLY, context.getHandler()) && principal.role !== 'operator')
      throw insufficientScope(OPERATOR_SCOPE);
    const tenant = request.params?.tenant;
    if (typeof tenant === 'string' && !mayAdminister(principal, tenant))
      throw DomainError.notFound(`Tenant ${tenant} does not exist`);
    request.adminPrincipal = principal;
    request.adminActor = {
      kind: principal.role,
      subject: principal.subject,
      client: principal.client,
      address: this.addresses.of(request),
    };
    return true;
  }
}

export function mayAdminister(principal: AdminPrincipal, tenantCode: string): boolean {
  return principal.role === 'operator' || principal.tenantCode === tenantCode;
}

export function adminPrincipalOf(request: Request): AdminPrincipal {
  const principal = (request as AdminRequest).adminPrincipal;
  if (!principal) throw new Error('adminPrincipalOf() on a route without AdminGuard');
  return principal;
}

/** The caller as an administrator. */
export const Admin = createParamDecorator((_data: unknown, context: ExecutionContext): AdminPrincipal =>
  adminPrincipalOf(context.switchToHttp().getRequest<Request>()),
);

/** How the request writes: as its administrator (and from the client address the gateway saw), audited. */
export const Writer = createParamDecorator((_data: unknown, context: ExecutionContext): WriteContext => {
  const actor = context.switchToHttp().getRequest<AdminRequest>().adminActor;
  if (!actor) throw new Error('@Writer() on a route without AdminGuard');
  return { actor };
});
