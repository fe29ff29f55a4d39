import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { ProcessMetrics } from '@broker/platform';
import { IMPORT_PIPELINE_QUEUE, type StageJob } from '@broker/contracts';

/** Job states of the pipeline queue reported as its depth. */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/**
 * What the worker reports besides the platform's HTTP metrics: each stage's duration, retries, failures, the queue's
 * depth and the webhook endpoints that fail.
 */
@Injectable()
export class PipelineMetrics {
  private readonly durations: Histogram<'stage' | 'outcome'>;
  private readonly retries: Counter<'stage'>;
  private readonly failures: Counter<'stage'>;

  constructor(
    metrics: ProcessMetrics,
    @InjectQueue(IMPORT_PIPELINE_QUEUE) queue: Queue<StageJob>,
    db: DataSource,
  ) {
    const registers = [metrics.registry];
    this.durations = new Histogram({
      name: 'import_stage_duration_seconds',
      help: 'Time a stage job of the import pipeline ran, by the status it starts from and its outcome',
      labelNames: ['stage', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.retries = new Counter({
      name: 'import_stage_retries_total',
      help: 'Stage jobs that failed and will be tried again, by stage',
      labelNames: ['stage'],
      registers,
    });
    this.failures = new Counter({
      name: 'import_stage_failures_total',
      help: 'Stage jobs that failed for good (retries spent or bad data), failing their import, by stage',
      labelNames: ['stage'],
      registers,
    });
    new Gauge({
      name: 'import_queue_jobs',
      help: 'Jobs in the import pipeline queue by state, read from Redis when scraped',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
      },
    });
    new Gauge({
      name: 'webhook_endpoints',
      help: 'Webhook endpoints of every broker whose deliveries fail (failing) or that were switched off after failing too long (disabled), read from the database when scraped',
      labelNames: ['state'],
      registers,
      async collect() {
        // A scrape while the database is unreachable keeps the last values.
        const [row] = await db
          .query<{ failing: number; disabled: number }[]>(
            `SELECT count(*) FILTER (WHERE failing_since IS NOT NULL AND disabled_at IS NULL)::int AS failing,
                    count(*) FILTER (WHERE disabled_at IS NOT NULL)::int AS disabled
               FROM "import".webhook_endpoint`,
          )
          .catch(() => []);
        if (row) for (const state of ['failing', 'disabled'] as const) this.set({ state }, row[state]);
      },
    });
  }

  /** Times `run` as a job of `stage`; the outcome is the value `run` returns, or `error`. */
  async timeStage(stage: string, run: () => Promise<string>): Promise<string> {
    const stop = this.durations.startTimer({ stage });
    try {
      const outcome = await run();
      stop({ outcome });
      return outcome;
    } catch (error) {
      stop({ outcome: 'error' });
      throw error;
    }
  }

  countFailedJob(stage: string, willRetry: boolean): void {
    (willRetry ? this.retries : this.failures).inc({ stage });
  }
}
