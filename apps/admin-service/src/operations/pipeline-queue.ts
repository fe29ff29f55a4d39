import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { ImportPipelineQueue } from '@broker/administration';
import {
  IMPORT_PIPELINE_QUEUE,
  STAGE_JOB_NAME,
  STAGE_JOB_OPTIONS,
  type StageJob,
  stageJobId,
} from '@broker/contracts';
import { redisConnection } from '@broker/platform';

/**
 * The import pipeline's queue, for an operator's retry or cancellation: the stage job as the pipeline keys it, so a
 * job still waiting or running is not doubled. Redis being away loses nothing: the process is in its status in
 * PostgreSQL, and the pipeline's sweeper takes it up once it has sat idle.
 */
export class BullImportPipelineQueue implements ImportPipelineQueue, OnApplicationShutdown {
  private readonly logger = new Logger('ImportPipelineQueue');
  private readonly queue: Queue<StageJob>;

  constructor(redisUrl: string, prefix: string) {
    this.queue = new Queue<StageJob>(IMPORT_PIPELINE_QUEUE, {
      connection: redisConnection(redisUrl),
      prefix,
    });
  }

  async enqueue(job: StageJob): Promise<void> {
    await this.queue
      .add(STAGE_JOB_NAME, job, { ...STAGE_JOB_OPTIONS, jobId: stageJobId(job) })
      .catch((error: unknown) => {
        this.logger.warn(
          { err: error },
          `Import ${job.processId} left to the pipeline's sweeper: the queue is unreachable`,
        );
      });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
