import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/**
 * customersPrepared → customersAssigned: each merged customer is matched to the existing customer of the
 * target broker with the same external key (an earlier import of the same insurer customer or CSV number).
 */
@Injectable()
export class CustomersAssignStage extends SqlStage {
  readonly from = 'customersPrepared';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    const [counts] = await tx.query<{ matched: number; fresh: number }[]>(
      `WITH matched AS (
         UPDATE "import".merged_customer m
            SET customer_id = existing.id, matched_existing = existing.id IS NOT NULL
           FROM "import".merged_customer self
           JOIN "import".import_process p ON p.id = self.process_id
           LEFT JOIN broker.customer existing
             ON existing.tenant_id = p.tenant_id AND existing.broker_id = p.broker_id
            AND existing.external_key = self.customer_key
          WHERE m.process_id = $1 AND self.process_id = m.process_id AND self.customer_key = m.customer_key
            AND m.rejected_reason IS NULL
         RETURNING m.matched_existing)
       SELECT count(*) FILTER (WHERE matched_existing)::int AS matched,
              count(*) FILTER (WHERE NOT matched_existing)::int AS fresh
         FROM matched`,
      [processId],
    );
    await this.staging.recordCounts(tx, processId, {
      customersMatched: counts?.matched ?? 0,
      customersNew: counts?.fresh ?? 0,
    });
  }
}
