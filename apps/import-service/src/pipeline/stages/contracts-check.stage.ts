import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';
import type { RejectionRule } from '../staging.repository.js';

const ISSUE_STAGE = 'contractsPrepared';

/**
 * The reason, as SQL over the merged contract `contract` of the process `process`, given here and by
 * contractsFinalized's broker guard. A dry run, which writes nothing and can name any policy number, does not
 * confirm that another broker holds the contract; the import's own report does.
 */
export const heldByAnotherBroker = (contract: string, process: string) =>
  `'Contract ' || ${contract}.policy_number || ' of insurer ' || ${contract}.vu_number ||
     CASE WHEN ${process}.dry_run THEN ' cannot be imported for this broker' ELSE ' is held by another broker' END`;

// The first rule that applies names the reason: another broker's contract says so even when its customer was
// rejected for that very reason.
const RULES: RejectionRule[] = [
  {
    reason: heldByAnotherBroker('c', 'p'),
    where: `EXISTS (SELECT 1 FROM broker.contract k
                     WHERE k.tenant_id = p.tenant_id AND k.company_id = c.company_id
                       AND k.policy_number = c.policy_number AND k.broker_id <> p.broker_id)`,
  },
  {
    reason: `'Contract ' || c.policy_number || ' was not imported because its customer was rejected'`,
    where: `c.customer_id IS NULL`,
  },
  {
    reason: `'Contract ' || c.policy_number || ' is of insurer ' || c.vu_number || ', which is not a known company'`,
    where: `c.company_id IS NULL`,
  },
];

/**
 * contractsPrepare → contractsPrepared: the contracts, linked to customer and company when they were extracted,
 * checked against the inventory as it is now: one another broker holds (same tenant, company and policy number)
 * is rejected rather than moved, one without a written customer or a known company is rejected; those the
 * broker already holds are counted as matched.
 */
@Injectable()
export class ContractsCheckStage extends SqlStage {
  readonly from = 'contractsPrepare';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await this.staging.applyRules(tx, 'merged_contract', processId, ISSUE_STAGE, RULES);
    const [counts] = await tx.query<{ linked: number; existing: number; rejected: number }[]>(
      `SELECT count(*) FILTER (WHERE c.rejected_reason IS NULL)::int AS linked,
              count(k.id) FILTER (WHERE c.rejected_reason IS NULL)::int AS existing,
              count(*) FILTER (WHERE c.rejected_reason IS NOT NULL)::int AS rejected
         FROM "import".merged_contract c
         JOIN "import".import_process p ON p.id = c.process_id
         LEFT JOIN broker.contract k
           ON k.tenant_id = p.tenant_id AND k.company_id = c.company_id AND k.policy_number = c.policy_number
        WHERE c.process_id = $1`,
      [processId],
    );
    await this.staging.recordCounts(tx, processId, {
      contractsLinked: counts?.linked ?? 0,
      contractsMatched: counts?.existing ?? 0,
      contractsUnlinked: counts?.rejected ?? 0,
    });
  }
}
