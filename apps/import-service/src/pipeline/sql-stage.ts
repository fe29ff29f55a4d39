import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ImportPipelineStatus } from '@broker/contracts';
import type { ImportProcessRecord } from './import-process-state.repository.js';
import type { StageHandler, StageRejection } from './stage-handler.js';
import { StagingRepository } from './staging.repository.js';

/**
 * A stage that works in SQL over the work tables: the whole stage is one transaction. `runIn` returns (not
 * throws) a rejection of the file, so the issues it recorded are committed and the failed process keeps them.
 */
@Injectable()
export abstract class SqlStage implements StageHandler {
  abstract readonly from: ImportPipelineStatus;

  constructor(
    private readonly db: DataSource,
    protected readonly staging: StagingRepository,
  ) {}

  async run(process: ImportProcessRecord): Promise<void> {
    const rejection = await this.db.transaction((tx) => this.runWithin(tx, process));
    if (rejection) throw rejection;
  }

  /** The stage's work in the caller's transaction (its own, or a dry run's); a rejection of the file is returned. */
  async runWithin(tx: EntityManager, process: ImportProcessRecord): Promise<StageRejection | undefined> {
    await this.staging.useBulkMemory(tx);
    return (await this.runIn(tx, process.id)) ?? undefined;
  }

  protected abstract runIn(tx: EntityManager, processId: string): Promise<StageRejection | void>;
}
