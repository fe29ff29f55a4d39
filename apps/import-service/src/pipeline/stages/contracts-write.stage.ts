import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/** The insurer's file is the authority on its contract: a later file replaces these fields. */
const CONTRACT_FIELDS = [
  'customer_id',
  'line_of_business',
  'status',
  'start_date',
  'end_date',
  'main_due_date',
  'payment_mode',
  'net_premium_cents',
  'gross_premium_cents',
  'currency',
];

/**
 * contractsPrepared → contractsFinalized: the linked contracts written in one upsert on tenant, company and
 * policy number. The broker guard repeats contractsPrepared's check for a contract another broker took over
 * in between.
 */
@Injectable()
export class ContractsWriteStage extends SqlStage {
  readonly from = 'contractsPrepared';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    const [counts] = await tx.query<{ created: number; updated: number }[]>(
      `WITH written AS (
         INSERT INTO broker.contract (tenant_id, broker_id, company_id, policy_number, ${CONTRACT_FIELDS.join(', ')})
         SELECT p.tenant_id, p.broker_id, mc.company_id, mc.policy_number,
                ${CONTRACT_FIELDS.map((field) => `mc.${field}`).join(', ')}
           FROM "import".merged_contract mc JOIN "import".import_process p ON p.id = mc.process_id
          WHERE mc.process_id = $1 AND mc.rejected_reason IS NULL
          ORDER BY mc.company_id, mc.policy_number
         ON CONFLICT (tenant_id, company_id, policy_number) DO UPDATE
            SET ${CONTRACT_FIELDS.map((field) => `${field} = EXCLUDED.${field}`).join(', ')}
          WHERE contract.broker_id = EXCLUDED.broker_id
         RETURNING xmax = 0 AS created)
       SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated
         FROM written`,
      [processId],
    );
    const created = counts?.created ?? 0;
    const updated = counts?.updated ?? 0;
    await this.staging.recordCounts(tx, processId, {
      contractsCreated: created,
      contractsUpdated: updated,
      contractsWritten: created + updated,
    });
  }
}
