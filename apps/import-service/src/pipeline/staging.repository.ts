import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ImportedContract, ImportedCustomer } from '../formats/imported-entities.js';

export interface StagingBatch {
  customers: { seq: number; customer: ImportedCustomer }[];
  contracts: { seq: number; contract: ImportedContract }[];
  issues: { severity: 'warning' | 'rejected'; line: number; message: string }[];
}

/** Staging writes: one multi-row statement per batch and table, never a round trip per record. */
@Injectable()
export class StagingRepository {
  /** Removes what an earlier, interrupted run of the stage left, so a re-run starts clean. */
  async clear(tx: EntityManager, processId: string, stage: string): Promise<void> {
    await tx.query('DELETE FROM "import".staged_contract WHERE process_id = $1', [processId]);
    await tx.query('DELETE FROM "import".staged_customer WHERE process_id = $1', [processId]);
    await this.clearIssues(tx, processId, stage);
  }

  /** Removes the issues an earlier run of `stage` recorded. */
  async clearIssues(tx: EntityManager, processId: string, stage: string): Promise<void> {
    await tx.query('DELETE FROM "import".import_issue WHERE process_id = $1 AND stage = $2', [
      processId,
      stage,
    ]);
  }

  async write(tx: EntityManager, processId: string, stage: string, batch: StagingBatch): Promise<void> {
    if (batch.customers.length > 0) {
      await tx.query(
        `INSERT INTO "import".staged_customer (process_id, seq, customer_key, line, data)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[], $5::jsonb[])`,
        [
          processId,
          batch.customers.map((entry) => entry.seq),
          batch.customers.map((entry) => entry.customer.key),
          batch.customers.map((entry) => entry.customer.line),
          batch.customers.map((entry) => JSON.stringify(entry.customer)),
        ],
      );
    }
    if (batch.contracts.length > 0) {
      await tx.query(
        `INSERT INTO "import".staged_contract (process_id, seq, customer_key, vu_number, policy_number, line, data)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::jsonb[])`,
        [
          processId,
          batch.contracts.map((entry) => entry.seq),
          batch.contracts.map((entry) => entry.contract.customerKey),
          batch.contracts.map((entry) => entry.contract.vuNumber),
          batch.contracts.map((entry) => entry.contract.policyNumber),
          batch.contracts.map((entry) => entry.contract.line),
          batch.contracts.map((entry) => JSON.stringify(entry.contract)),
        ],
      );
    }
    if (batch.issues.length > 0) {
      await tx.query(
        `INSERT INTO "import".import_issue (process_id, stage, severity, line, message)
         SELECT $1, $2, * FROM unnest($3::text[], $4::int[], $5::text[])`,
        [
          processId,
          stage,
          batch.issues.map((issue) => issue.severity),
          batch.issues.map((issue) => issue.line),
          batch.issues.map((issue) => issue.message),
        ],
      );
    }
  }

  async recordCounts(tx: EntityManager, processId: string, counts: Record<string, number>): Promise<void> {
    await tx.query(
      'UPDATE "import".import_process SET stage_counts = stage_counts || $2::jsonb WHERE id = $1',
      [processId, JSON.stringify(counts)],
    );
  }
}
