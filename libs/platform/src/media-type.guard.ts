import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  SetMetadata,
} from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ApiConsumes } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@broker/errors';

const JSON_MEDIA_TYPE = 'application/json';
const BODY_MEDIA_TYPES = 'broker:bodyMediaTypes';

/**
 * The media types an operation's body may have, when not JSON (an upload, a multi-call, a form): accepted by
 * MediaTypeGuard and declared in the OpenAPI document.
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
 * is left to validation.
 *
 * `guardBodyMediaTypes` makes it the last guard of every operation that takes a body, so an unauthenticated caller
 * learns nothing from it.
 */
export class MediaTypeGuard implements CanActivate {
  /** `accepted`: the media types of the one operation this instance guards (lower case). */
  constructor(private readonly accepted: readonly string[]) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithHeaders>();
    if (!hasBody(request)) return true;
    const sent = mediaTypeOf(request.headers['content-type']);
    if (this.accepted.includes(sent)) return true;
    const what = sent ? `Content-Type ${sent}` : 'no Content-Type';
    throw new DomainError(
      ErrorCode.UnsupportedMediaType,
      `The body has ${what}; this operation takes ${this.accepted.join(' or ')}`,
    );
  }
}

/** The media types the operation `handler` of `controller` takes for its body; none when it reads no body. */
function bodyMediaTypesOf(controller: object, handler: { name: string }): string[] {
  const declared = Reflect.getMetadata(BODY_MEDIA_TYPES, handler) as string[] | undefined;
  if (declared) return declared.map((type) => type.toLowerCase());
  const parameters = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as object;
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

/**
 * Makes MediaTypeGuard the last guard of every operation of `app` that takes a body: after its controller's and its
 * own guards (authentication first). Called before `app.init()` resolves the routes' guards. A guard per operation
 * rather than a global interceptor: an interceptor puts every request of the service through Nest's rxjs pipeline,
 * which cost the calculation a fifth of its throughput (bench/README).
 */
export function guardBodyMediaTypes(app: INestApplication): void {
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype: controller } of module.controllers.values()) {
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, { name: string }>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        const accepted = Reflect.hasMetadata(PATH_METADATA, handler)
          ? bodyMediaTypesOf(controller, handler)
          : [];
        if (accepted.length > 0) appendGuard(handler, new MediaTypeGuard(accepted));
      }
    }
  }
}

/** An instance, not the class: the module scan that registers guard classes is over by now. */
function appendGuard(handler: object, guard: MediaTypeGuard): void {
  const guards = (Reflect.getMetadata(GUARDS_METADATA, handler) ?? []) as unknown[];
  // A controller class serves every app built in one process (the tests build many).
  if (guards.some((existing) => existing instanceof MediaTypeGuard)) return;
  Reflect.defineMetadata(GUARDS_METADATA, [...guards, guard], handler);
}
