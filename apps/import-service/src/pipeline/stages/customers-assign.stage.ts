import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/**
 * customersPrepared → customersAssigned: each merged customer is matched to the existing customer of the
 * target broker with the same external key (an earlier import of the same insurer customer or CSV number), and
 * the matches are counted. The next stage's upsert writes along the same key, so the rows are not updated here.
 */
@Injectable()
export class CustomersAssignStage extends SqlStage {
  readonly from = 'customersPrepared';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    const [counts] = await tx.query<{ matched: number; fresh: number }[]>(
      `SELECT count(existing.id)::int AS matched, count(*) FILTER (WHERE existing.id IS NULL)::int AS fresh
         FROM "import".merged_customer m
         JOIN "import".import_process p ON p.id = m.process_id
         LEFT JOIN broker.customer existing
           ON existing.tenant_id = p.tenant_id AND existing.broker_id = p.broker_id
          AND existing.external_key = m.customer_key
        WHERE m.process_id = $1 AND m.rejected_reason IS NULL`,
      [processId],
    );
    await this.staging.recordCounts(tx, processId, {
      customersMatched: counts?.matched ?? 0,
      customersNew: counts?.fresh ?? 0,
    });
  }
}
