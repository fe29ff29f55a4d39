import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram } from 'prom-client';
import { ProcessMetrics } from '@broker/platform';
import { IMPORT_PIPELINE_QUEUE, type StageJob } from './pipeline-definition.js';

/** Job states of the pipeline queue reported as its depth. */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** What the worker reports besides the platform's HTTP metrics: each stage's duration, retries, failures. */
@Injectable()
export class PipelineMetrics {
  private readonly durations: Histogram<'stage' | 'outcome'>;
  private readonly retries: Counter<'stage'>;
  private readonly failures: Counter<'stage'>;

  constructor(metrics: ProcessMetrics, @InjectQueue(IMPORT_PIPELINE_QUEUE) queue: Queue<StageJob>) {
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
