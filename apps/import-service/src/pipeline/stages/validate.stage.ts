import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ImportProcessRecord } from '../import-process-state.repository.js';
import { type StageHandler, StageRejection } from '../stage-handler.js';
import { StagingRepository } from '../staging.repository.js';

const ISSUE_STAGE = 'validated';

/**
 * Structure checks over the staged contracts, set-based; each failing contract gets its reason and an issue
 * with its line, the first reason found wins. A GDV file's contracts must belong to the companies chosen for
 * the import; a CSV file's to a company of the tenant.
 */
const RULES: { reason: string; where: string }[] = [
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
    where: `EXISTS (SELECT 1 FROM "import".staged_contract later
                     WHERE later.process_id = c.process_id AND later.vu_number = c.vu_number
                       AND later.policy_number = c.policy_number AND later.seq > c.seq)`,
  },
];

/** imported → validated. */
@Injectable()
export class ValidateStage implements StageHandler {
  readonly from = 'imported';

  constructor(
    private readonly db: DataSource,
    private readonly staging: StagingRepository,
  ) {}

  async run(process: ImportProcessRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('UPDATE "import".staged_contract SET rejected_reason = NULL WHERE process_id = $1', [
        process.id,
      ]);
      await this.staging.clearIssues(tx, process.id, ISSUE_STAGE);
      for (const rule of RULES) await this.apply(tx, process.id, rule);
      const [counts] = await tx.query<{ valid: number; rejected: number; firstReason: string | null }[]>(
        `SELECT count(*) FILTER (WHERE rejected_reason IS NULL)::int AS valid,
                count(*) FILTER (WHERE rejected_reason IS NOT NULL)::int AS rejected,
                (array_agg(rejected_reason ORDER BY seq) FILTER (WHERE rejected_reason IS NOT NULL))[1] AS "firstReason"
           FROM "import".staged_contract WHERE process_id = $1`,
        [process.id],
      );
      if (!counts || counts.valid === 0) {
        // The transaction is rolled back with the issues, so the reason carries an example.
        const example = counts?.firstReason
          ? ` (${counts.rejected} rejected; the first: ${counts.firstReason})`
          : '';
        throw new StageRejection(`No contract of the file passed validation${example}`);
      }
      await tx.query(
        `UPDATE "import".import_process
            SET stage_counts = stage_counts || jsonb_build_object('contractsValid', $2::int, 'contractsRejected', $3::int)
          WHERE id = $1`,
        [process.id, counts.valid, counts.rejected],
      );
    });
  }

  private async apply(
    tx: EntityManager,
    processId: string,
    rule: { reason: string; where: string },
  ): Promise<void> {
    await tx.query(
      `WITH rejected AS (
         UPDATE "import".staged_contract c SET rejected_reason = ${rule.reason}
           FROM "import".import_process p
          WHERE c.process_id = $1 AND p.id = c.process_id AND c.rejected_reason IS NULL AND ${rule.where}
         RETURNING c.line, c.rejected_reason)
       INSERT INTO "import".import_issue (process_id, stage, severity, line, message)
       SELECT $1, $2, 'rejected', line, rejected_reason FROM rejected`,
      [processId, ISSUE_STAGE],
    );
  }
}
