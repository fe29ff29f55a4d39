import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/**
 * customersDone → contractsPrepare: the contracts that passed validation, taken from the staged records into
 * typed columns, ready to be linked.
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
            end_date, main_due_date, payment_mode, net_premium_cents, gross_premium_cents, currency)
         SELECT process_id, seq, line, customer_key, vu_number, policy_number, data->>'lineOfBusiness',
                data->>'status', (data->>'startDate')::date, (data->>'endDate')::date,
                (data->>'mainDueDate')::date, data->>'paymentMode', (data->>'netPremiumCents')::bigint,
                (data->>'grossPremiumCents')::bigint, data->>'currency'
           FROM "import".staged_contract
          WHERE process_id = $1 AND rejected_reason IS NULL
         RETURNING 1)
       SELECT count(*)::int AS count FROM extracted`,
      [processId],
    );
    await this.staging.analyze(tx, 'merged_contract');
    await this.staging.recordCounts(tx, processId, { contractsExtracted: extracted?.count ?? 0 });
  }
}
