import type { ImportPipelineStatus } from './import-process.js';

/*
 * The platform's queues (BullMQ) and their jobs, as the services that own them and the administration (an operator's
 * retry, resend or the queue board) use them.
 */

/**
 * The import pipeline's queue (BullMQ), as the import API, its worker and the administration (an operator's retry)
 * put work on it.
 */
export const IMPORT_PIPELINE_QUEUE = 'import-pipeline';

/** The one job type of the pipeline queue: move process `processId` on from status `from`. */
export interface StageJob {
  processId: string;
  from: ImportPipelineStatus;
  /** While the database is out of reach: since when, and the tries waited out (the worker's retry policy). */
  outage?: StageOutage;
}

export interface StageOutage {
  /** When the first try failed because the database was out of reach (epoch ms). */
  since: number;
  /** Tries that failed so since. */
  tries: number;
}

export const STAGE_JOB_NAME = 'stage';

/** Jobs are keyed by process and stage, so enqueuing the same stage twice runs it once. */
export function stageJobId(job: Pick<StageJob, 'processId' | 'from'>): string {
  return `${job.processId}-${job.from}`;
}

/**
 * Retries with exponential backoff for transient faults; bad data fails at once (UnrecoverableError). A database
 * out of reach is waited out by the worker without spending these attempts (its retry policy delays the job).
 */
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

/** Its one job: deliver outbox message `messageId`; keyed by the message, so it is never queued twice. */
export interface NotificationJob {
  messageId: string;
}

export const NOTIFICATION_JOB_NAME = 'deliver';

export function notificationJobId(job: NotificationJob): string {
  return `message-${job.messageId}`;
}

export const NOTIFICATION_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;
