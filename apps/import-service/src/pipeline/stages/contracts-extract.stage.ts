import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/**
 * customersDone → contractsPrepare: the contracts that passed validation, taken from the staged records with
 * their dates and amounts typed, each linked to its written customer (none when the customer was rejected) and
 * its company.
 */
@Injectable()
export class ContractsExtractStage extends SqlStage {
  readonly from = 'customersDone';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await tx.query('DELETE FROM "import".merged_contract WHERE process_id = $1', [processId]);
    const [extracted] = await tx.query<{ count: number }[]>(
      `WITH extracted AS (
         INSERT INTO "import".merged_contract
           (process_id, seq, line, customer_key, vu_number, policy_number, line_of_business, status, start_date,
            end_date, main_due_date, payment_mode, net_premium_cents, gross_premium_cents, currency, customer_id,
            company_id)
         SELECT s.process_id, s.seq, s.line, s.customer_key, s.vu_number, s.policy_number, s.line_of_business,
                s.status, s.start_date::date, s.end_date::date, s.main_due_date::date, s.payment_mode,
                s.net_premium_cents::bigint, s.gross_premium_cents::bigint, s.currency, m.customer_id, co.id
           FROM "import".staged_contract s
           JOIN "import".import_process p ON p.id = s.process_id
           LEFT JOIN "import".merged_customer m
             ON m.process_id = s.process_id AND m.customer_key = s.customer_key AND m.rejected_reason IS NULL
           LEFT JOIN broker.company co ON co.tenant_id = p.tenant_id AND co.vu_number = s.vu_number
          WHERE s.process_id = $1 AND s.rejected_reason IS NULL
         RETURNING 1)
       SELECT count(*)::int AS count FROM extracted`,
      [processId],
    );
    await this.staging.analyze(tx, 'merged_contract');
    await this.staging.recordCounts(tx, processId, { contractsExtracted: extracted?.count ?? 0 });
  }
}
