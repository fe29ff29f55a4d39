import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import {
  IMPORT_PIPELINE_QUEUE,
  STAGE_JOB_NAME,
  STAGE_JOB_OPTIONS,
  type StageJob,
  stageJobId,
} from '@broker/contracts';

/** Puts stage jobs on the pipeline queue; used by the API (first stage) and the worker (every next one). */
@Injectable()
export class PipelineQueue {
  constructor(@InjectQueue(IMPORT_PIPELINE_QUEUE) private readonly queue: Queue<StageJob>) {}

  async enqueue(job: StageJob): Promise<void> {
    await this.queue.add(STAGE_JOB_NAME, job, { ...STAGE_JOB_OPTIONS, jobId: stageJobId(job) });
  }
}
