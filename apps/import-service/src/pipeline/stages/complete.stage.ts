import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/**
 * contractsFinalized → processed: the number of contracts written becomes the process's amount_of_records and
 * the work tables are emptied (issues and counts stay for the report).
 */
@Injectable()
export class CompleteStage extends SqlStage {
  readonly from = 'contractsFinalized';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await tx.query(
      `UPDATE "import".import_process
          SET amount_of_records = coalesce((stage_counts->>'contractsWritten')::int, 0) WHERE id = $1`,
      [processId],
    );
    await this.staging.release(tx, processId);
  }
}
