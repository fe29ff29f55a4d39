import { Inject, Injectable, Logger } from '@nestjs/common';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { IMPORT_PIPELINE_STATUSES, type ImportPipelineStatus } from '@broker/contracts';
import { isDatabaseUnavailable } from '@broker/db';
import { inSpan } from '@broker/telemetry';
import { ImportEvents } from '../events/import-events.js';
import type { StageJob } from '@broker/contracts';
import { statusAfter } from './pipeline-definition.js';
import { PipelineMetrics } from './pipeline-metrics.js';
import { PipelineQueue } from './pipeline-queue.js';
import { type ImportProcessRecord, ImportProcessStateRepository } from './import-process-state.repository.js';
import { DryRunProcess } from './dry-run-process.js';
import { STAGE_HANDLERS, type StageHandler, StageRejection } from './stage-handler.js';
import { storableText } from './storable-text.js';
import { nextOutageTry, STAGE_RETRY_SETTINGS, type StageRetrySettings } from './stage-retry.js';

/** The statuses a dry-run process passes while its dry run runs (one job does them all). */
const DRY_RUN_STATUSES: readonly ImportPipelineStatus[] = IMPORT_PIPELINE_STATUSES.slice(
  0,
  IMPORT_PIPELINE_STATUSES.indexOf('contractsFinalized'),
);

/** Bad data: the process fails at once, and the message, written for the user, is its reason. */
class DataRejected extends UnrecoverableError {}

/** The database stayed out of reach for the whole outage budget: unrecoverable for BullMQ, technical for the user. */
class OutageOutlasted extends UnrecoverableError {}

/**
 * Runs one stage job: skips it when the process has already moved on (a repeated job is harmless),
 * runs the stage's handler, moves the status on with a guarded update and enqueues the next stage.
 */
@Injectable()
export class StageRunner {
  private readonly logger = new Logger(StageRunner.name);
  private readonly handlers: Map<string, StageHandler>;

  constructor(
    private readonly processes: ImportProcessStateRepository,
    private readonly queue: PipelineQueue,
    private readonly metrics: PipelineMetrics,
    private readonly events: ImportEvents,
    private readonly dryRuns: DryRunProcess,
    @Inject(STAGE_HANDLERS) handlers: StageHandler[],
    @Inject(STAGE_RETRY_SETTINGS) private readonly retry: StageRetrySettings,
  ) {
    this.handlers = new Map(handlers.map((handler) => [handler.from, handler]));
  }

  /** In a span of the upload's trace (the job carries it), named after the stage. */
  process(job: Job<StageJob>, token: string | undefined): Promise<string> {
    const { processId, from } = job.data;
    return inSpan(`import stage ${from}`, { 'import.process_id': processId, 'import.stage': from }, () =>
      this.metrics.timeStage(from, () =>
        this.runStage(job).catch((error) => this.judgeFault(job, token, error)),
      ),
    );
  }

  /**
   * Bad data fails the process at once. While the database is out of reach the job waits, without spending an
   * attempt, for as long as the outage budget allows (`nextOutageTry`); any other fault is left to its attempts.
   */
  private async judgeFault(job: Job<StageJob>, token: string | undefined, error: unknown): Promise<never> {
    if (error instanceof StageRejection) throw new DataRejected(error.message);
    const { outage: previous, ...data } = job.data;
    if (!isDatabaseUnavailable(error)) {
      // The database answered: a later outage is waited out afresh.
      if (previous) await job.updateData(data).catch(() => undefined);
      throw error;
    }
    const next = nextOutageTry(previous, Date.now(), this.retry);
    if (!next) throw new OutageOutlasted(`The database stayed out of reach: ${String(error)}`);
    try {
      await job.updateData({ ...data, outage: next.outage });
      await job.moveToDelayed(Date.now() + next.delayMs, token);
    } catch {
      throw error; // Redis is away too: BullMQ's own retry, if it can
    }
    this.logger.warn(
      `Import ${job.data.processId} waits in stage ${job.data.from}: the database is out of reach (${String(error)})`,
    );
    throw new DelayedError();
  }

  private async runStage(job: Job<StageJob>): Promise<string> {
    const { processId, from } = job.data;
    const process = await this.processes.find(processId);
    const handler = this.handlers.get(from);
    const to = statusAfter(from);
    if (!process || process.status !== from || !handler || !to) return 'skipped';
    if (process.cancelRequestedBy !== null) return this.cancel(processId, process.cancelRequestedBy);
    if (process.dryRun && DRY_RUN_STATUSES.includes(from)) return this.runDryRun(process);
    await handler.run(process, this.events.recordsOf(processId, from));
    if (!(await this.processes.advance(processId, from, to))) return this.overtaken(processId);
    await this.events.statusChanged(processId);
    // A stage that is due only later (archiving) is enqueued by the sweeper once it is due.
    const next = this.handlers.get(to);
    if (next && next.dueAfterMs === undefined) await this.queue.enqueue({ processId, from: to });
    return to;
  }

  /** The stage's work was done, but the process moved on without it, or an operator cancelled it meanwhile. */
  private async overtaken(processId: string): Promise<string> {
    const process = await this.processes.find(processId);
    if (process?.cancelRequestedBy != null) return this.cancel(processId, process.cancelRequestedBy);
    return 'overtaken';
  }

  /** Ends a process an operator cancelled as failed, as any failed process ends (its work rows released). */
  private async cancel(processId: string, operator: string): Promise<string> {
    await this.processes.fail(processId, `Cancelled by the operator ${operator}`);
    await this.events.statusChanged(processId);
    return 'cancelled';
  }

  /** A dry-run process: the whole dry run in one job, its status moved along as it goes, then processed. */
  private async runDryRun(process: ImportProcessRecord): Promise<string> {
    const ran = await this.dryRuns.run(process);
    if (!ran) return 'skipped';
    if (!(await this.processes.advance(process.id, 'contractsFinalized', 'processed')))
      return this.overtaken(process.id);
    await this.events.statusChanged(process.id);
    return 'processed';
  }

  /** Bad data, attempts spent or an outage outlasted: the process fails with the reason. */
  async onFailed(job: Job<StageJob> | undefined, error: Error): Promise<void> {
    if (!job) return;
    const retried = !(error instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1);
    this.metrics.countFailedJob(job.data.from, retried);
    if (retried) return;
    this.logger.warn(`Import ${job.data.processId} failed in stage ${job.data.from}: ${error.message}`);
    // Nothing awaits this event handler: a rejection would end the worker. The sweeper retries the process.
    await this.processes
      .fail(job.data.processId, this.reasonOf(job, error))
      .then(() => this.events.statusChanged(job.data.processId))
      .catch((failure: unknown) => {
        this.logger.error({ err: failure }, `Could not mark import ${job.data.processId} failed`);
      });
  }

  /**
   * Bad data explains itself (storable, though it may quote the file); a technical fault is named without
   * internals, which stay in the log.
   */
  private reasonOf(job: Job<StageJob>, error: Error): string {
    if (error instanceof DataRejected) return storableText(error.message);
    return `The import stopped in stage ${job.data.from} after repeated technical faults; please upload the file again or contact support`;
  }
}
