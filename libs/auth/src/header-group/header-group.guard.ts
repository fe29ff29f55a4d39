import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { HttpRequestLike } from '../http-request.js';
import { isValidZone } from '@broker/datetime';
import { DomainError, ErrorCode } from '@broker/errors';
import { HeaderGroupVerifier, type SvcPrincipal } from './header-group-verifier.js';
import { InProcessCallers } from './in-process-callers.js';

type RequestWithSvcPrincipal = HttpRequestLike & { svcPrincipal?: SvcPrincipal };

/** The header a client in another time zone names its IANA zone with (area C). */
export const TIMEZONE_HEADER = 'x-svc-timezone';
/** The path parameter of the employee who acts (`{ma}` of the employee service), looked up with the API client. */
export const EMPLOYEE_PARAM = 'ma';

/**
 * Area C: lets a request through only with a valid header group for the tenant in the path (`:tenant`), or as
 * a part of a multi-call whose outer request had one; the caller is then `svcPrincipalOf(request)`.
 */
@Injectable()
export class HeaderGroupGuard implements CanActivate {
  constructor(
    @Inject(HeaderGroupVerifier) private readonly verifier: HeaderGroupVerifier,
    @Inject(InProcessCallers) private readonly inProcessCallers: InProcessCallers,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithSvcPrincipal>();
    const tenant = pathParam(request, 'tenant') ?? '';
    const zone = requestZone(request);
    const inProcessCaller = this.inProcessCallers.callerOf(request);
    if (inProcessCaller && inProcessCaller.tenantCode !== tenant)
      throw DomainError.notFound(`Tenant ${tenant} does not exist`);
    request.svcPrincipal =
      inProcessCaller ??
      (await this.verifier.verify(tenant, request.headers, zone, pathParam(request, EMPLOYEE_PARAM)));
    return true;
  }
}

const pathParam = (request: HttpRequestLike, name: string) => {
  const value = request.params?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** The caller's IANA time zone from `X-Svc-Timezone`, undefined when it sends none (Europe/Berlin applies). */
export function requestZone(request: HttpRequestLike): string | undefined {
  const zone = request.headers[TIMEZONE_HEADER];
  if (zone === undefined || zone === '') return undefined;
  if (typeof zone !== 'string' || !isValidZone(zone))
    throw new DomainError(
      ErrorCode.ValidationFailed,
      'Header X-Svc-Timezone is not an IANA time zone (for example Europe/Berlin)',
    );
  return zone;
}

export function svcPrincipalOf(request: HttpRequestLike): SvcPrincipal {
  const principal = (request as RequestWithSvcPrincipal).svcPrincipal;
  if (!principal) throw new Error('svcPrincipalOf() on a route without HeaderGroupGuard');
  return principal;
}
