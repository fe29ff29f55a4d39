import type { ImportPipelineStatus } from './import-process.js';

/**
 * The import pipeline's queue (BullMQ), as the import API, its worker and the administration (an operator's retry)
 * put work on it.
 */
export const IMPORT_PIPELINE_QUEUE = 'import-pipeline';

/** The one job type of the pipeline queue: move process `processId` on from status `from`. */
export interface StageJob {
  processId: string;
  from: ImportPipelineStatus;
}

export const STAGE_JOB_NAME = 'stage';

/** Jobs are keyed by process and stage, so enqueuing the same stage twice runs it once. */
export function stageJobId(job: StageJob): string {
  return `${job.processId}-${job.from}`;
}

/** Retries with exponential backoff for transient faults; bad data fails at once (UnrecoverableError). */
export const STAGE_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;

/** The import service's queue of webhook deliveries (under the same prefix as the pipeline's). */
export const IMPORT_WEBHOOK_QUEUE = 'import-webhooks';

/** The broker service's queue of customer messages (under `{BROKER_REDIS_PREFIX}queue`). */
export const NOTIFICATION_QUEUE = 'notifications';
