import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';
import type { StageRejection } from '../stage-handler.js';
import { nothingAccepted, type RejectionRule } from '../staging.repository.js';

const ISSUE_STAGE = 'customersPrepared';

/**
 * The customers of the import ($1) with contracts that passed validation, every one of them an inventory contract
 * of another broker (same tenant, company and policy number). One grouped pass over the import's contracts.
 */
const HELD_ELSEWHERE_ONLY = `
  SELECT s.customer_key
    FROM "import".staged_contract s
    JOIN "import".import_process ip ON ip.id = s.process_id
    LEFT JOIN broker.company co ON co.tenant_id = ip.tenant_id AND co.vu_number = s.vu_number
    LEFT JOIN broker.contract k
      ON k.tenant_id = ip.tenant_id AND k.company_id = co.id AND k.policy_number = s.policy_number
   WHERE s.process_id = $1 AND s.rejected_reason IS NULL
   GROUP BY s.customer_key
  HAVING bool_and(coalesce(k.broker_id <> ip.broker_id, false))`;

const RULES: RejectionRule[] = [
  {
    reason: `'The customer on line ' || c.line || ' is a natural person without a last name'`,
    where: `c.person_type = 'natuerlich' AND c.last_name IS NULL`,
  },
  {
    reason: `'The customer on line ' || c.line || ' is a company without a company name'`,
    where: `c.person_type = 'juristisch' AND c.company_name IS NULL`,
  },
  {
    reason: `'The customer on line ' || c.line || ' has the country "' || c.country || '", which is not an ISO 3166 code'`,
    where: `c.country !~ '^[A-Z]{2}$'`,
  },
  {
    // Written anyway, it would be a customer of the importing broker without any of its contracts.
    reason: `'The customer on line ' || c.line || CASE WHEN p.dry_run
      THEN ' would not be imported: none of its contracts can be imported for this broker'
      ELSE ' was not imported: each of its contracts is held by another broker' END`,
    where: `c.customer_key IN (${HELD_ELSEWHERE_ONLY})`,
  },
];

/**
 * customersParsed → customersPrepared: a merged customer (normalised when it was parsed) that cannot be written
 * to the inventory, or all of whose contracts another broker holds, is rejected with its reason (its contracts
 * follow it later).
 */
@Injectable()
export class CustomersPrepareStage extends SqlStage {
  readonly from = 'customersParsed';

  protected async runIn(tx: EntityManager, processId: string): Promise<StageRejection | void> {
    await this.staging.applyRules(tx, 'merged_customer', processId, ISSUE_STAGE, RULES);
    const tally = await this.staging.tally(tx, 'merged_customer', processId);
    await this.staging.recordCounts(tx, processId, {
      customersPrepared: tally.accepted,
      customersRejected: tally.rejected,
    });
    if (tally.accepted === 0) return nothingAccepted('No customer of the file can be written', tally);
  }
}
