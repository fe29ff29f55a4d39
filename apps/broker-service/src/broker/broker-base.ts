import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type HttpRequestLike, type SvcPrincipal, svcPrincipalOf } from '@broker/auth';

/** The broker service's base ({base_url}); the interface version is v1, as for the employee service. */
export const BROKER_BASE = 'service/:tenant/broker/v1/rest';

/** The calling broker, as HeaderGroupGuard authenticated it. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): SvcPrincipal =>
  svcPrincipalOf(context.switchToHttp().getRequest<HttpRequestLike>()),
);
