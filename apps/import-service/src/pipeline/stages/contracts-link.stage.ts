import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';
import type { RejectionRule } from '../staging.repository.js';

const ISSUE_STAGE = 'contractsPrepared';

const LINK = `
  UPDATE "import".merged_contract mc
     SET customer_id = link.customer_id, company_id = link.company_id, existing_contract_id = link.contract_id,
         rejected_reason = NULL
    FROM (SELECT c.seq, m.customer_id, co.id AS company_id, k.id AS contract_id
            FROM "import".merged_contract c
            JOIN "import".import_process p ON p.id = c.process_id
            LEFT JOIN "import".merged_customer m
              ON m.process_id = c.process_id AND m.customer_key = c.customer_key AND m.rejected_reason IS NULL
            LEFT JOIN broker.company co ON co.tenant_id = p.tenant_id AND co.vu_number = c.vu_number
            LEFT JOIN broker.contract k
              ON k.tenant_id = p.tenant_id AND k.company_id = co.id AND k.policy_number = c.policy_number
           WHERE c.process_id = $1) link
   WHERE mc.process_id = $1 AND mc.seq = link.seq`;

// The first rule that applies names the reason: another broker's contract says so even when its customer was
// rejected for that very reason.
const RULES: RejectionRule[] = [
  {
    reason: `'Contract ' || c.policy_number || ' of insurer ' || c.vu_number || ' is held by another broker'`,
    where: `EXISTS (SELECT 1 FROM broker.contract k WHERE k.id = c.existing_contract_id AND k.broker_id <> p.broker_id)`,
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
 * contractsPrepare → contractsPrepared: each contract linked to its written customer, its company and the
 * inventory contract it will update (same tenant, company and policy number). A contract another broker holds
 * is rejected rather than moved.
 */
@Injectable()
export class ContractsLinkStage extends SqlStage {
  readonly from = 'contractsPrepare';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await this.staging.clearIssues(tx, processId, ISSUE_STAGE);
    await tx.query(LINK, [processId]);
    for (const rule of RULES) await this.staging.reject(tx, 'merged_contract', processId, ISSUE_STAGE, rule);
    const [counts] = await tx.query<{ linked: number; existing: number; rejected: number }[]>(
      `SELECT count(*) FILTER (WHERE rejected_reason IS NULL)::int AS linked,
              count(*) FILTER (WHERE rejected_reason IS NULL AND existing_contract_id IS NOT NULL)::int AS existing,
              count(*) FILTER (WHERE rejected_reason IS NOT NULL)::int AS rejected
         FROM "import".merged_contract WHERE process_id = $1`,
      [processId],
    );
    await this.staging.recordCounts(tx, processId, {
      contractsLinked: counts?.linked ?? 0,
      contractsMatched: counts?.existing ?? 0,
      contractsUnlinked: counts?.rejected ?? 0,
    });
  }
}
