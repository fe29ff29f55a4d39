import { isUtf8 } from 'node:buffer';
import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { type Request, type Response, raw } from 'express';
import type { Observable } from 'rxjs';
import { DomainError, ErrorCode } from '@broker/errors';

export const CSV_LIMIT_BYTES = Symbol('CSV_LIMIT_BYTES');

type CsvRequest = Request & { csv?: string };

/** Charsets whose bytes UTF-8 reads as they are meant (ASCII is a subset of UTF-8). */
const UTF8_CHARSETS = ['utf-8', 'utf8', 'us-ascii'];

/** The charset a Content-Type names, lower case; undefined when it names none. */
function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

/**
 * Reads a text/csv body as UTF-8 text (the service otherwise parses only JSON): another charset is a 415 (as is a compressed body), bytes that
 * are not UTF-8 a 400, a body above the limit a 413 (as it arrives: a chunked body has no Content-Length to refuse it
 * by). In an interceptor rather than a middleware, so a refused body reaches the exception filter like any fault.
 */
@Injectable()
export class CsvBodyInterceptor implements NestInterceptor {
  private readonly parse: ReturnType<typeof raw>;

  constructor(@Inject(CSV_LIMIT_BYTES) limit: number) {
    // inflate: false refuses a compressed body (415): the limit holds for the bytes that arrive, not for what they
    // would expand to.
    this.parse = raw({ type: 'text/csv', limit, inflate: false });
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<CsvRequest>();
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && !UTF8_CHARSETS.includes(charset))
      throw new DomainError(ErrorCode.UnsupportedMediaType, `The file must be UTF-8, not ${charset}`);
    await new Promise<void>((resolve, reject) =>
      this.parse(request, http.getResponse<Response>(), (error?: Error) =>
        error ? reject(error) : resolve(),
      ),
    );
    const body: unknown = request.body;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    if (!isUtf8(bytes)) throw DomainError.validation(['The file is not valid UTF-8']);
    request.csv = bytes.toString('utf8');
    return next.handle();
  }
}

/** The CSV text CsvBodyInterceptor read. */
export function csvOf(request: Request): string {
  const csv = (request as CsvRequest).csv;
  if (csv === undefined) throw new Error('csvOf() on a route without CsvBodyInterceptor');
  return csv;
}
