import { Inject, Injectable } from '@nestjs/common';
import { FILE_STORAGE, type FileStorage } from '../../storage/file-storage.js';
import type { ImportProcessRecord } from '../import-process-state.repository.js';
import { type StageHandler, StageRejection } from '../stage-handler.js';

/** uploaded → transmitted: the worker can reach the stored original (a missing file is a rejection). */
@Injectable()
export class TransmitStage implements StageHandler {
  readonly from = 'uploaded';

  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async run(process: ImportProcessRecord): Promise<void> {
    const size = await this.storage.size(process.storageKey);
    if (size === undefined)
      throw new StageRejection('The uploaded file is no longer in storage; please upload it again');
  }
}
