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
  /** The technical faults of the job's tries so far (the worker's retry policy records them); none at first. */
  faults?: StageFaults;
}

export interface StageFaults {
  /** Tries that failed. */
  tries: number;
  /** Of those, the ones that failed for anything but the database being out of reach. */
  otherFaults: number;
  /** When the first try failed because the database was out of reach (epoch ms). */
  outageSince?: number;
  /** How long to wait before the next try. */
  delayMs: number;
}

export const STAGE_JOB_NAME = 'stage';

/** Jobs are keyed by process and stage, so enqueuing the same stage twice runs it once. */
export function stageJobId(job: Pick<StageJob, 'processId' | 'from'>): string {
  return `${job.processId}-${job.from}`;
}

/** The backoff type of stage jobs: the worker's retry policy sets each job's next delay (StageFaults.delayMs). */
export const STAGE_BACKOFF = 'stage-faults';

/**
 * Bad data fails at once (UnrecoverableError), and so does a job whose technical faults the worker's retry policy
 * gave up on; anything else is tried again after its backoff. `attempts` is only a bound the policy never reaches.
 */
export const STAGE_JOB_OPTIONS = {
  attempts: 10_000,
  backoff: { type: STAGE_BACKOFF },
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
