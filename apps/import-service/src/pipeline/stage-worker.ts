import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type ConnectionOptions, Worker } from 'bullmq';
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

/** The BullMQ worker of the pipeline queue, started with the application and drained before it shuts down. */
@Injectable()
export class StageWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private worker: Worker<StageJob, string> | undefined;

  constructor(
    private readonly runner: StageRunner,
    @Inject(STAGE_WORKER_SETTINGS) private readonly settings: StageWorkerSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = new Worker<StageJob, string>(
      IMPORT_PIPELINE_QUEUE,
      (job, token) => this.runner.process(job, token),
      {
        connection: this.settings.connection,
        prefix: this.settings.queuePrefix,
        concurrency: this.settings.concurrency,
        lockDuration: this.settings.lockMs,
        stalledInterval: this.settings.lockMs,
        // Each stage job in a span of the upload's trace, carried from job to job (PipelineQueue enqueues the next
        // stage inside this one's span).
        ...queueTelemetry(),
      },
    );
    this.worker.on('failed', (job, error) => void this.runner.onFailed(job, error));
  }

  /** Before the database pool closes: waits for the jobs in flight, takes no new ones. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }
}
