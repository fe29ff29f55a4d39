import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import type { StartImportForm } from '@broker/contracts';
import { DomainError } from '@broker/errors';

/** The text fields of the upload form; typed so that a field added to StartImportForm must be added here. */
const FORM_FIELDS: Record<keyof StartImportForm, true> = { companies: true, broker: true };

const isFormField = (name: string) => Object.hasOwn(FORM_FIELDS, name);

/**
 * Refuses an unknown form field by the names multer parsed, before the validation pipe: the pipe drops names
 * such as `__proto__` or `constructor` silently instead of refusing them.
 */
@Injectable()
export class KnownFormFieldsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const form = context.switchToHttp().getRequest<Request>().body as object | undefined;
    const unknown = Object.keys(form ?? {}).filter((name) => !isFormField(name));
    if (unknown.length > 0) {
      throw DomainError.validation(unknown.map((name) => `property ${name} should not exist`));
    }
    return next.handle();
  }
}
