import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { CustomerMessageQueue, ImportPipelineQueue } from '@broker/administration';
import {
  IMPORT_PIPELINE_QUEUE,
  IMPORT_WEBHOOK_QUEUE,
  NOTIFICATION_JOB_NAME,
  NOTIFICATION_JOB_OPTIONS,
  NOTIFICATION_QUEUE,
  type NotificationJob,
  notificationJobId,
  STAGE_JOB_NAME,
  STAGE_JOB_OPTIONS,
  type StageJob,
  stageJobId,
} from '@broker/contracts';
import { redisConnection } from '@broker/platform';

/** Where the services keep their queues in Redis. */
export interface PlatformQueueSettings {
  redisUrl: string;
  /** The import service's IMPORT_QUEUE_PREFIX (its pipeline and its webhook deliveries). */
  importPrefix: string;
  /** The broker service's BROKER_REDIS_PREFIX (its customer messages are queued under `{prefix}queue`). */
  brokerPrefix: string;
}

/**
 * The platform's queues as the administration uses them: an operator's retry or cancel puts the process's stage on
 * the pipeline's queue, a resend puts the message on the customer messages' queue (both keyed as their services key
 * them, so nothing is doubled), and the console's queue board shows all three. Redis being away loses nothing: the
 * truth is in PostgreSQL, and the services' sweepers take the work up.
 */
export class PlatformQueueClients
  implements ImportPipelineQueue, CustomerMessageQueue, OnApplicationShutdown
{
  private readonly logger = new Logger('PlatformQueues');
  readonly pipeline: Queue<StageJob>;
  readonly webhooks: Queue;
  readonly notifications: Queue<NotificationJob>;

  constructor(settings: PlatformQueueSettings) {
    const connection = redisConnection(settings.redisUrl);
    this.pipeline = new Queue<StageJob>(IMPORT_PIPELINE_QUEUE, { connection, prefix: settings.importPrefix });
    this.webhooks = new Queue(IMPORT_WEBHOOK_QUEUE, { connection, prefix: settings.importPrefix });
    this.notifications = new Queue<NotificationJob>(NOTIFICATION_QUEUE, {
      connection,
      prefix: `${settings.brokerPrefix}queue`,
    });
  }

  get all(): Queue[] {
    return [this.pipeline, this.webhooks, this.notifications];
  }

  async enqueue(job: StageJob): Promise<void> {
    await this.pipeline
      .add(STAGE_JOB_NAME, job, { ...STAGE_JOB_OPTIONS, jobId: stageJobId(job) })
      .catch((error: unknown) => this.leftToSweeper(error, `Import ${job.processId}`));
  }

  /** The message's delivery now: queued, or, when its job waits out a backoff, promoted. */
  async deliverNow(messageId: string): Promise<void> {
    const job: NotificationJob = { messageId };
    const jobId = notificationJobId(job);
    try {
      await this.notifications.add(NOTIFICATION_JOB_NAME, job, { ...NOTIFICATION_JOB_OPTIONS, jobId });
      const queued = await this.notifications.getJob(jobId);
      if (await queued?.isDelayed()) await queued?.promote();
    } catch (error) {
      this.leftToSweeper(error, `Message ${messageId}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.all.map((queue) => queue.close()));
  }

  private leftToSweeper(error: unknown, what: string): void {
    this.logger.warn({ err: error }, `${what} left to its service's sweeper: the queue is unreachable`);
  }
}
