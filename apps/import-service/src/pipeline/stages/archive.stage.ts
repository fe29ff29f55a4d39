import { Inject, Injectable } from '@nestjs/common';
import { FILE_STORAGE, type FileStorage } from '../../storage/file-storage.js';
import type { ImportProcessRecord } from '../import-process-state.repository.js';
import type { StageHandler } from '../stage-handler.js';

export const RETENTION_MS = Symbol('RETENTION_MS');

/**
 * processed → archived, once the retention period has passed: the stored upload is removed; the process, its
 * history, counts and issues stay.
 */
@Injectable()
export class ArchiveStage implements StageHandler {
  readonly from = 'processed';

  constructor(
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(RETENTION_MS) readonly dueAfterMs: number,
  ) {}

  async run(process: ImportProcessRecord): Promise<void> {
    await this.storage.remove(process.storageKey);
  }
}
