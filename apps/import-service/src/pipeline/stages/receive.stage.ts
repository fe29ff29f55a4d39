import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { FILE_STORAGE, type FileStorage } from '../../storage/file-storage.js';
import type { ImportProcessRecord } from '../import-process-state.repository.js';
import { type StageHandler, StageRejection } from '../stage-handler.js';

/** transmitted → received: the stored file is exactly what was uploaded (size and sha256, read as a stream). */
@Injectable()
export class ReceiveStage implements StageHandler {
  readonly from = 'transmitted';

  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async run(process: ImportProcessRecord): Promise<void> {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of this.storage.read(process.storageKey) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
    if (size !== process.fileSize || hash.digest('hex') !== process.fileSha256) {
      throw new StageRejection(
        'The stored file differs from the upload (checksum mismatch); please upload it again',
      );
    }
  }
}
