import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';
import { heldByAnotherBroker } from './contracts-check.stage.js';

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

const ISSUE_STAGE = 'contractsFinalized';

/** How long the search documents' refresh beside the upsert waits for a lock before it gives up. */
const REFRESH_LOCK_WAIT_S = 300;

/**
 * contractsPrepared → contractsFinalized: the linked contracts written in one upsert on tenant, company and
 * policy number. The broker guard repeats contractsPrepared's check for a contract another broker took over
 * in between; such a contract is left as it is and reported with its line, as the check would have.
 *
 * Beside it, in a transaction of its own that commits first, the customers the process wrote become searchable as
 * they now are: one set-based refresh of their search documents, deferred by the customer stages. The two touch
 * different tables (the contracts' foreign-key checks share the customers' rows with the refresh's lock without
 * waiting), so PostgreSQL does them at once, and the customers are searchable before the process is `processed`.
 */
@Injectable()
export class ContractsWriteStage extends SqlStage {
  readonly from = 'contractsPrepared';

  protected override besides(processId: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      await this.staging.useBulkMemory(tx);
      // The contracts' transaction waits for this one outside PostgreSQL's view: a lock this one waits for, held
      // by a transaction that waits for the contracts' locks, would be a deadlock no one detects. The bound ends
      // it (the job is retried); a move of brokers, which holds the tenant's search lock, takes far less.
      await tx.query(`SET LOCAL lock_timeout = '${REFRESH_LOCK_WAIT_S}s'`);
      await this.staging.refreshSearch(tx, processId);
    });
  }

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await this.staging.clearIssues(tx, processId, ISSUE_STAGE);
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
         RETURNING company_id, policy_number, xmax = 0 AS created),
       held_elsewhere AS (
         INSERT INTO "import".import_issue (process_id, stage, severity, line, message)
         SELECT $1, $2, 'rejected', mc.line,
                ${heldByAnotherBroker('mc', 'p')}
           FROM "import".merged_contract mc JOIN "import".import_process p ON p.id = mc.process_id
          WHERE mc.process_id = $1 AND mc.rejected_reason IS NULL
            AND NOT EXISTS (SELECT 1 FROM written w
                             WHERE w.company_id = mc.company_id AND w.policy_number = mc.policy_number)
          ORDER BY mc.line)
       SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated
         FROM written`,
      [processId, ISSUE_STAGE],
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
