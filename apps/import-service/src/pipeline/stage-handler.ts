import type { ImportPipelineStatus } from '@broker/contracts';
import type { StageRecords } from '../events/import-progress.js';
import type { ImportProcessRecord } from './import-process-state.repository.js';

/**
 * One stage of the pipeline: the work that moves a process on from status `from`. A handler must be
 * idempotent (it may run again after a crash) and throws StageRejection for bad data, anything else
 * for a transient fault that is worth a retry.
 */
export interface StageHandler {
  readonly from: ImportPipelineStatus;
  /** How long after the process reached `from` the stage is due (the sweeper starts it); at once when absent. */
  readonly dueAfterMs?: number;
  /** `progress`: a stage that walks the file's records reports how many it has done (as often as it likes). */
  run(process: ImportProcessRecord, progress: StageProgress): Promise<void>;
}

export type StageProgress = (records: StageRecords) => void;

export const STAGE_HANDLERS = Symbol('STAGE_HANDLERS');

/** The data cannot be processed; retrying will not help. The message is shown to the user. */
export class StageRejection extends Error {
  override readonly name = 'StageRejection';
}
