import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type ConnectionOptions, type MinimalJob, Worker } from 'bullmq';
import { queueTelemetry } from '@broker/telemetry';
import { IMPORT_PIPELINE_QUEUE, type StageJob } from '@broker/contracts';
import { StageRunner } from './stage-runner.js';

export const STAGE_WORKER_SETTINGS = Symbol('STAGE_WORKER_SETTINGS');

export interface StageWorkerSettings {
  connection: ConnectionOptions;
  queuePrefix: string;
  /** Stage jobs run at the same time in this process. */
  concurrency: number;
  /**
   * How long a job stays locked to this process without a renewal. A worker that was killed leaves its active
   * job locked this long; then another worker (or this one restarted) takes it up again.
   */
  lockMs: number;
}

/** A job failed without the policy's record (a stalled job BullMQ failed itself) is tried again after 1 s. */
const UNRECORDED_FAULT_DELAY_MS = 1_000;

function stageRetryDelay(job: MinimalJob<StageJob> | undefined): number {
  return job?.data.faults?.delayMs ?? UNRECORDED_FAULT_DELAY_MS;
}

/** The BullMQ worker of the pipeline queue, started with the application and drained before it shuts down. */
@Injectable()
export class StageWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private worker: Worker<StageJob, string> | undefined;

  constructor(
    private readonly runner: StageRunner,
    @Inject(STAGE_WORKER_SETTINGS) private readonly settings: StageWorkerSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = new Worker<StageJob, string>(IMPORT_PIPELINE_QUEUE, (job) => this.runner.process(job), {
      connection: this.settings.connection,
      prefix: this.settings.queuePrefix,
      concurrency: this.settings.concurrency,
      lockDuration: this.settings.lockMs,
      stalledInterval: this.settings.lockMs,
      // Each stage job in a span of the upload's trace, carried from job to job (PipelineQueue enqueues the next
      // stage inside this one's span).
      ...queueTelemetry(),
      // The wait StageRunner's retry policy recorded on the job (STAGE_BACKOFF).
      settings: { backoffStrategy: (_attempts, _type, _error, job) => stageRetryDelay(job) },
    });
    this.worker.on('failed', (job, error) => void this.runner.onFailed(job, error));
  }

  /** Before the database pool closes: waits for the jobs in flight, takes no new ones. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }
}
