import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, mergeMap, type Observable, throwError } from 'rxjs';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import type { StoredUpload } from '../storage/upload-storage-engine.js';

/**
 * Runs after the upload is stored: when validation or the handler refuses the request, the stored file
 * is removed, so a refused upload leaves nothing behind.
 */
@Injectable()
export class RemoveUploadOnErrorInterceptor implements NestInterceptor {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const upload = context.switchToHttp().getRequest<Request & { file?: StoredUpload }>().file;
    return next
      .handle()
      .pipe(
        catchError((error: unknown) =>
          upload
            ? from(this.storage.remove(upload.storageKey).catch(() => undefined)).pipe(
                mergeMap(() => throwError(() => error)),
              )
            : throwError(() => error),
        ),
      );
  }
}
