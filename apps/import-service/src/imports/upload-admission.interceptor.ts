import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { from, type Observable, of, switchMap } from 'rxjs';
import { principalOf } from '@broker/auth';
import { DomainError, ErrorCode } from '@broker/errors';
import { RedisReadiness } from '@broker/platform';
import { ImportService } from './import.service.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** What an Idempotency-Key may be: 1 to 255 visible ASCII characters (a UUID, for example). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** What a refused upload is asked to wait before it tries again. */
const RETRY_AFTER_SECONDS = 5;

/** The request's Idempotency-Key, checked; undefined without one. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return undefined;
  if (Array.isArray(value) || !IDEMPOTENCY_KEY.test(value))
    throw DomainError.validation([
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters, sent once`,
    ]);
  return value;
}

/**
 * Decides on an upload before a byte of its file is read: a repeated Idempotency-Key of the caller (within 24 h)
 * is answered with the process it created, nothing read or created again; and while Redis, which moves the
 * import on, does not answer, the upload is refused with 503 and Retry-After at once instead of waiting for it.
 */
@Injectable()
export class UploadAdmissionInterceptor implements NestInterceptor {
  constructor(
    private readonly imports: ImportService,
    private readonly redis: RedisReadiness,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return from(this.earlierProcess(http.getRequest<Request>())).pipe(
      switchMap((processId) => {
        // The file is not read: Node drops the rest of it as it arrives and keeps the connection. Closing it instead
        // would reset it under a client (nginx) still sending, which may then never read this answer (a 502).
        return processId === undefined ? next.handle() : of({ process_id: processId });
      }),
    );
  }

  private async earlierProcess(request: Request): Promise<string | undefined> {
    const key = idempotencyKeyOf(request);
    // A dry run writes nothing to repeat, so its key is not an import's; a malformed dry_run is refused later (400).
    const dryRun = request.query.dry_run;
    if (key && (dryRun === undefined || dryRun === 'false')) {
      const processId = await this.imports.processOfIdempotencyKey(principalOf(request), key);
      if (processId) return processId;
    }
    await this.redis.probe().catch(() => {
      throw new DomainError(
        ErrorCode.DependencyUnavailable,
        'The import queue is unavailable; try again later',
        [],
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    });
    return undefined;
  }
}
