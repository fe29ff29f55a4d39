import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ApiConsumes } from '@nestjs/swagger';
import type { Observable } from 'rxjs';
import { DomainError, ErrorCode } from '@broker/errors';

const JSON_MEDIA_TYPE = 'application/json';
const BODY_MEDIA_TYPES = 'broker:bodyMediaTypes';

/**
 * The media types an operation's body may have, when not JSON (an upload, a multi-call, a form): accepted by
 * MediaTypeInterceptor and declared in the OpenAPI document.
 */
export function BodyMediaTypes(...types: string[]): MethodDecorator {
  return applyDecorators(SetMetadata(BODY_MEDIA_TYPES, types), ApiConsumes(...types));
}

interface RequestWithHeaders {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A body in another media type than the operation takes is a 415 in the area's shape, before the handler runs:
 * the JSON parser leaves a `text/plain` body (or one without Content-Type) unread, and the handler would see an
 * empty object (a PUT that changes nothing, answered 200). An operation takes `application/json` when it reads
 * `@Body()`, or the media types of its `@BodyMediaTypes` (the upload's multipart/form-data). A request without a body
 * is left to validation. Runs after the guards, so an unauthenticated caller learns nothing from it.
 */
@Injectable()
export class MediaTypeInterceptor implements NestInterceptor {
  /** Per handler, read once from its metadata: this runs on every request. */
  private readonly acceptedByHandler = new WeakMap<object, string[]>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const accepted = this.acceptedOf(context);
    const request = context.switchToHttp().getRequest<RequestWithHeaders>();
    if (accepted.length > 0 && hasBody(request)) {
      const sent = mediaTypeOf(request.headers['content-type']);
      if (!accepted.includes(sent)) {
        const what = sent ? `Content-Type ${sent}` : 'no Content-Type';
        throw new DomainError(
          ErrorCode.UnsupportedMediaType,
          `The body has ${what}; this operation takes ${accepted.join(' or ')}`,
        );
      }
    }
    return next.handle();
  }

  private acceptedOf(context: ExecutionContext): string[] {
    const handler = context.getHandler();
    let accepted = this.acceptedByHandler.get(handler);
    if (!accepted) {
      accepted = acceptedMediaTypes(context);
      this.acceptedByHandler.set(handler, accepted);
    }
    return accepted;
  }
}

function acceptedMediaTypes(context: ExecutionContext): string[] {
  const handler = context.getHandler();
  const declared = Reflect.getMetadata(BODY_MEDIA_TYPES, handler) as string[] | undefined;
  if (declared) return declared.map((type) => type.toLowerCase());
  const parameters = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
    {}) as object;
  const readsBody = Object.keys(parameters).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
  return readsBody ? [JSON_MEDIA_TYPE] : [];
}

function hasBody(request: RequestWithHeaders): boolean {
  const length = Number(request.headers['content-length'] ?? 0);
  return length > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** `application/json; charset=utf-8` → `application/json`; '' when absent. */
function mediaTypeOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0].trim().toLowerCase();
}
