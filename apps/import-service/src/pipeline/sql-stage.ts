import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ImportPipelineStatus } from '@broker/contracts';
import type { ImportProcessRecord } from './import-process-state.repository.js';
import type { StageHandler } from './stage-handler.js';
import { StagingRepository } from './staging.repository.js';

/** A stage that works in SQL over the work tables: the whole stage is one transaction. */
@Injectable()
export abstract class SqlStage implements StageHandler {
  abstract readonly from: ImportPipelineStatus;

  constructor(
    private readonly db: DataSource,
    protected readonly staging: StagingRepository,
  ) {}

  async run(process: ImportProcessRecord): Promise<void> {
    await this.db.transaction((tx) => this.runIn(tx, process.id));
  }

  protected abstract runIn(tx: EntityManager, processId: string): Promise<void>;
}
