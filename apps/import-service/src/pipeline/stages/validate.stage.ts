import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';
import type { StageRejection } from '../stage-handler.js';
import { nothingAccepted, type RejectionRule } from '../staging.repository.js';

const ISSUE_STAGE = 'validated';

/**
 * Structure checks over the staged contracts, set-based ($1 is the process id); each failing contract gets its reason and an issue
 * with its line, the first reason found wins. A GDV file's contracts must belong to the companies chosen for
 * the import; a CSV file's to a company of the tenant.
 */
const RULES: RejectionRule[] = [
  {
    reason: `'Contract ' || c.policy_number || ' is of insurer ' || c.vu_number || ', which is not among the companies of this import'`,
    where: `p.file_type = 'GDV' AND NOT EXISTS (
              SELECT 1 FROM "import".import_process_company pc JOIN broker.company co ON co.id = pc.company_id
               WHERE pc.process_id = p.id AND co.vu_number = c.vu_number)`,
  },
  {
    reason: `'Contract ' || c.policy_number || ' is of insurer ' || c.vu_number || ', which is not a known company'`,
    where: `p.file_type = 'CSV' AND NOT EXISTS (
              SELECT 1 FROM broker.company co WHERE co.tenant_id = p.tenant_id AND co.vu_number = c.vu_number)`,
  },
  {
    reason: `'Contract ' || c.policy_number || ' names a customer that the file does not contain'`,
    where: `NOT EXISTS (SELECT 1 FROM "import".staged_customer s
                         WHERE s.process_id = c.process_id AND s.customer_key = c.customer_key)`,
  },
  {
    reason: `'Contract ' || c.policy_number || ' of insurer ' || c.vu_number || ' occurs again later in the file; the later one is imported'`,
    where: `c.seq IN (SELECT seq FROM (SELECT seq, row_number() OVER (PARTITION BY vu_number, policy_number
                                                                   ORDER BY seq DESC) AS rank
                                           FROM "import".staged_contract WHERE process_id = $1) occurrence
                       WHERE rank > 1)`,
  },
];

/** imported → validated. */
@Injectable()
export class ValidateStage extends SqlStage {
  readonly from = 'imported';

  protected async runIn(tx: EntityManager, processId: string): Promise<StageRejection | void> {
    await this.staging.applyRules(tx, 'staged_contract', processId, ISSUE_STAGE, RULES);
    const tally = await this.staging.tally(tx, 'staged_contract', processId);
    await this.staging.recordCounts(tx, processId, {
      contractsValid: tally.accepted,
      contractsRejected: tally.rejected,
    });
    if (tally.accepted === 0) return nothingAccepted('No contract of the file passed validation', tally);
  }
}
