import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type Request, type Response, urlencoded } from 'express';
import type { Observable } from 'rxjs';
/** Largest urlencoded form body; a drawn signature is the bulk of the largest. */
export const FORM_LIMIT_BYTES = 1024 * 1024;

const parseForm = urlencoded({ extended: false, limit: FORM_LIMIT_BYTES, parameterLimit: 20 });

/**
 * Reads an urlencoded form body (the service otherwise parses only JSON). In an interceptor rather than a
 * middleware, so that a refused body (413, malformed) reaches the page's exception filter like any other fault.
 */
@Injectable()
export class FormBodyInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    await new Promise<void>((resolve, reject) =>
      parseForm(http.getRequest<Request>(), http.getResponse<Response>(), (error?: Error) =>
        error ? reject(error) : resolve(),
      ),
    );
    return next.handle();
  }
}
