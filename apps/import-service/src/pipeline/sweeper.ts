import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { ImportPipelineStatus } from '@broker/contracts';
import { isDatabaseUnavailable } from '@broker/db';
import { ImportProcessStateRepository } from './import-process-state.repository.js';
import { PipelineQueue } from './pipeline-queue.js';
import { STAGE_HANDLERS, type StageHandler } from './stage-handler.js';

export const SWEEPER_SETTINGS = Symbol('SWEEPER_SETTINGS');

export interface SweeperSettings {
  intervalMs: number;
  /** How long a process may sit in a status with work to do before its stage is enqueued again. */
  idleMs: number;
}

/**
 * Resumes processes that stopped between stages (worker killed, Redis flushed): their stage job is enqueued
 * again under its usual id, so a job that is still waiting or running is not doubled. It also starts the
 * stages that are due only some time after the previous one (archiving after the retention period).
 */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Sweeper.name);
  /** Per status with work to do: how long a process may sit there before its stage is enqueued again. */
  private readonly idleThresholds: { status: ImportPipelineStatus; idleMs: number }[];
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly processes: ImportProcessStateRepository,
    private readonly queue: PipelineQueue,
    @Inject(STAGE_HANDLERS) handlers: StageHandler[],
    @Inject(SWEEPER_SETTINGS) private readonly settings: SweeperSettings,
  ) {
    this.idleThresholds = handlers.map((handler) => ({
      status: handler.from,
      idleMs: handler.dueAfterMs ?? settings.idleMs,
    }));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepUnlessRunning(), this.settings.intervalMs);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One pass; returns how many processes were resumed. */
  async sweep(): Promise<number> {
    const idle = await this.processes.findIdle(this.idleThresholds);
    for (const process of idle) await this.queue.enqueue({ processId: process.id, from: process.status });
    if (idle.length > 0) this.logger.log(`Resumed ${idle.length} idle import process(es)`);
    return idle.length;
  }

  /** A slow pass (Redis or PostgreSQL under load) is not overtaken by the next tick. */
  private async sweepUnlessRunning(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweep();
    } catch (error) {
      this.report(error);
    } finally {
      this.sweeping = false;
    }
  }

  /** An outage is waited out (the next tick tries again): a warning; anything else is an error. */
  private report(error: unknown): void {
    if (isDatabaseUnavailable(error))
      this.logger.warn(`Sweep skipped: the database is out of reach (${String(error)})`);
    else this.logger.error({ err: error }, 'Sweep failed');
  }
}
