import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ImportPipelineStatus } from '@broker/contracts';
import type { ImportProcessRecord } from './import-process-state.repository.js';
import type { StageHandler, StageRejection } from './stage-handler.js';
import { StagingRepository } from './staging.repository.js';

/**
 * A stage that works in SQL over the work tables: the whole stage is one transaction. `runIn` returns (not
 * throws) a rejection of the file, so the issues it recorded are committed and the failed process keeps them.
 * A stage may have work `besides` that transaction, in one of its own on a second connection, at the same time:
 * PostgreSQL then works for the import on two cores. The stage's transaction commits only after that one did, so
 * a job repeated after a fault (or a killed worker) always finds the stage's own work undone.
 */
@Injectable()
export abstract class SqlStage implements StageHandler {
  abstract readonly from: ImportPipelineStatus;

  constructor(
    protected readonly db: DataSource,
    protected readonly staging: StagingRepository,
  ) {}

  async run(process: ImportProcessRecord): Promise<void> {
    const besides = this.besides(process.id);
    // Awaited below; this keeps its failure from counting as unhandled while the stage's own work goes on.
    besides.catch(() => undefined);
    let rejection: StageRejection | undefined;
    try {
      rejection = await this.db.transaction(async (tx) => {
        const result = await this.runWithin(tx, process);
        await besides;
        return result;
      });
    } finally {
      await Promise.allSettled([besides]);
    }
    if (rejection) throw rejection;
  }

  /** The work besides the stage's transaction (none unless the stage has some); a dry run leaves it out. */
  protected besides(_processId: string): Promise<void> {
    return Promise.resolve();
  }

  /** The stage's work in the caller's transaction (its own, or a dry run's); a rejection of the file is returned. */
  async runWithin(tx: EntityManager, process: ImportProcessRecord): Promise<StageRejection | undefined> {
    await this.staging.useBulkMemory(tx);
    return (await this.runIn(tx, process.id)) ?? undefined;
  }

  protected abstract runIn(tx: EntityManager, processId: string): Promise<StageRejection | void>;
}
