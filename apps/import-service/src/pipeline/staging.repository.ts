import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ImportedContract, ImportedCustomer } from '../formats/imported-entities.js';
import { copyRows } from './copy-rows.js';
import { StageRejection } from './stage-handler.js';

/** A set-based check: contracts or customers matching `where` (aliases c for the row, p for its process) are rejected. */
export interface RejectionRule {
  /** SQL text expression: the reason stored and reported. */
  reason: string;
  where: string;
}

/** The import's tables whose rows carry a rejection reason. */
export type RejectableTable = 'staged_contract' | 'merged_customer' | 'merged_contract';

export interface Tally {
  accepted: number;
  rejected: number;
  firstReason: string | null;
}

/** The failure when nothing of a kind is left: it names an example, so the reason explains itself. */
export function nothingAccepted(what: string, tally: Tally): StageRejection {
  const example = tally.firstReason ? ` (${tally.rejected} rejected; the first: ${tally.firstReason})` : '';
  return new StageRejection(`${what}${example}`);
}

const BULK_WORK_MEM = '64MB';

/** The import tables of a process that hold its rows between stages; emptied once it is processed. */
const WORK_TABLES = ['staged_customer', 'staged_contract', 'merged_customer', 'merged_contract'] as const;
type WorkTable = (typeof WORK_TABLES)[number];

/** The columns of the work tables that the stages' joins, groupings and filters use. */
const PLANNED_COLUMNS: Record<WorkTable, string[]> = {
  staged_customer: ['process_id', 'customer_key'],
  staged_contract: ['process_id', 'customer_key', 'vu_number', 'policy_number', 'rejected_reason'],
  merged_customer: ['process_id', 'customer_key', 'customer_id', 'rejected_reason'],
  merged_contract: ['process_id', 'rejected_reason', 'customer_id', 'company_id', 'policy_number'],
};

/** A staged customer's fields in columns (migration ImportStagingTyped1763700000019); the contacts as JSON. */
const STAGED_CUSTOMER_COLUMNS =
  'person_type, salutation, title, first_name, last_name, company_name, birth_date, street, postal_code, city, country, contacts';
const stagedCustomerFields = (customer: ImportedCustomer) => [
  customer.personType,
  customer.salutation,
  customer.title,
  customer.firstName,
  customer.lastName,
  customer.companyName,
  customer.birthDate,
  customer.address.street,
  customer.address.postalCode,
  customer.address.city,
  customer.address.country,
  JSON.stringify(customer.contacts),
];

const STAGED_CONTRACT_COLUMNS =
  'line_of_business, status, start_date, end_date, main_due_date, payment_mode, net_premium_cents, gross_premium_cents, currency';
const stagedContractFields = (contract: ImportedContract) => [
  contract.lineOfBusiness,
  contract.status,
  contract.startDate,
  contract.endDate,
  contract.mainDueDate,
  contract.paymentMode,
  contract.netPremiumCents,
  contract.grossPremiumCents,
  contract.currency,
];

export interface StagingBatch {
  customers: { seq: number; customer: ImportedCustomer }[];
  contracts: { seq: number; contract: ImportedContract }[];
  issues: { severity: 'warning' | 'rejected'; line: number; message: string }[];
}

/** Staging writes: one COPY per batch and table, never a round trip per record. */
@Injectable()
export class StagingRepository {
  private readonly logger = new Logger(StagingRepository.name);

  /**
   * A stage's passes sort and hash every row of an import (100,000 contracts: sorts of 12-40 MB); with the
   * default work_mem (4 MB) they spill to disk. For this transaction only, so one worker's stages at once
   * (IMPORT_WORKER_CONCURRENCY) bound what the imports take from the database server's memory.
   */
  async useBulkMemory(tx: EntityManager): Promise<void> {
    await tx.query(`SET LOCAL work_mem = '${BULK_WORK_MEM}'`);
  }

  /** Removes what an earlier, interrupted run of the stage left, so a re-run starts clean. */
  async clear(tx: EntityManager, processId: string, stage: string): Promise<void> {
    await tx.query('DELETE FROM "import".staged_contract WHERE process_id = $1', [processId]);
    await tx.query('DELETE FROM "import".staged_customer WHERE process_id = $1', [processId]);
    await this.clearIssues(tx, processId, stage);
  }

  /** Removes the issues an earlier run of `stage` recorded. */
  async clearIssues(tx: EntityManager, processId: string, stage: string): Promise<void> {
    await tx.query('DELETE FROM "import".import_issue WHERE process_id = $1 AND stage = $2', [
      processId,
      stage,
    ]);
  }

  async write(tx: EntityManager, processId: string, stage: string, batch: StagingBatch): Promise<void> {
    if (batch.customers.length > 0) {
      await copyRows(
        tx,
        `"import".staged_customer (process_id, seq, customer_key, line, ${STAGED_CUSTOMER_COLUMNS})`,
        batch.customers.map(({ seq, customer }) => [
          processId,
          seq,
          customer.key,
          customer.line,
          ...stagedCustomerFields(customer),
        ]),
      );
    }
    if (batch.contracts.length > 0) {
      await copyRows(
        tx,
        `"import".staged_contract (process_id, seq, customer_key, vu_number, policy_number, line, ${STAGED_CONTRACT_COLUMNS})`,
        batch.contracts.map(({ seq, contract }) => [
          processId,
          seq,
          contract.customerKey,
          contract.vuNumber,
          contract.policyNumber,
          contract.line,
          ...stagedContractFields(contract),
        ]),
      );
    }
    if (batch.issues.length > 0) {
      await copyRows(
        tx,
        '"import".import_issue (process_id, stage, severity, line, message)',
        batch.issues.map((issue) => [processId, stage, issue.severity, issue.line, issue.message]),
      );
    }
  }

  /**
   * A stage's checks from the start: its earlier issues and the rows' rejections are cleared (a re-run starts
   * clean), then each rule rejects the rows still accepted, in order, so the first rule that applies names the
   * reason.
   */
  async applyRules(
    tx: EntityManager,
    table: RejectableTable,
    processId: string,
    stage: string,
    rules: RejectionRule[],
  ): Promise<void> {
    await this.clearIssues(tx, processId, stage);
    await tx.query(
      `UPDATE "import".${table} SET rejected_reason = NULL WHERE process_id = $1 AND rejected_reason IS NOT NULL`,
      [processId],
    );
    for (const rule of rules) await this.reject(tx, table, processId, stage, rule);
  }

  /** Rejects the still-accepted rows of `table` that match the rule, each with an issue at its line. */
  private async reject(
    tx: EntityManager,
    table: RejectableTable,
    processId: string,
    stage: string,
    rule: RejectionRule,
  ): Promise<void> {
    await tx.query(
      `WITH rejected AS (
         UPDATE "import".${table} c SET rejected_reason = ${rule.reason}
           FROM "import".import_process p
          WHERE c.process_id = $1 AND p.id = c.process_id AND c.rejected_reason IS NULL AND ${rule.where}
         RETURNING c.line, c.rejected_reason)
       INSERT INTO "import".import_issue (process_id, stage, severity, line, message)
       SELECT $1, $2, 'rejected', line, rejected_reason FROM rejected ORDER BY line`,
      [processId, stage],
    );
  }

  /** How many rows of `table` are still accepted and how many rejected, with the first reason in file order. */
  async tally(tx: EntityManager, table: RejectableTable, processId: string): Promise<Tally> {
    const [tally] = await tx.query<Tally[]>(
      `SELECT count(*) FILTER (WHERE rejected_reason IS NULL)::int AS accepted,
              count(*) FILTER (WHERE rejected_reason IS NOT NULL)::int AS rejected,
              (array_agg(rejected_reason ORDER BY line) FILTER (WHERE rejected_reason IS NOT NULL))[1] AS "firstReason"
         FROM "import".${table} WHERE process_id = $1`,
      [processId],
    );
    return tally ?? { accepted: 0, rejected: 0, firstReason: null };
  }

  /**
   * Refreshes the planner's statistics of work tables a stage has just filled: without them the next stages'
   * joins are planned for empty tables (nested loops over every row). Counts this transaction's own rows. Only
   * the columns the stages join and filter on (PLANNED_COLUMNS): statistics of every column took 0.8 s per
   * 100,000 staged records.
   */
  async analyze(tx: EntityManager, ...tables: WorkTable[]): Promise<void> {
    for (const table of tables) {
      await tx.query(`ANALYZE "import".${table} (${PLANNED_COLUMNS[table].join(', ')})`);
    }
  }

  /** Makes the customers the process wrote searchable as they now are: one set-based refresh of their documents. */
  async refreshSearch(tx: EntityManager, processId: string): Promise<void> {
    await tx.query(
      `SELECT broker.customer_search_refresh(ARRAY(
         SELECT customer_id FROM "import".merged_customer WHERE process_id = $1 AND customer_id IS NOT NULL))`,
      [processId],
    );
  }

  /**
   * `refreshSearch` for a process that is being failed: whatever goes wrong in it is logged and undone (to a
   * savepoint), and the failing goes on, so a process never stays unfailed for the sake of its search documents.
   */
  async refreshSearchOrLog(tx: EntityManager, processId: string): Promise<void> {
    await tx.query('SAVEPOINT refresh_search');
    try {
      await this.refreshSearch(tx, processId);
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT refresh_search');
      this.logger.error(
        { err: error },
        `Import ${processId}: its customers' search documents were not refreshed`,
      );
    }
  }

  /** Empties the work tables of a finished process; its issues and counts stay for the report. */
  async release(tx: EntityManager, processId: string): Promise<void> {
    for (const table of WORK_TABLES) {
      await tx.query(`DELETE FROM "import".${table} WHERE process_id = $1`, [processId]);
    }
  }

  async recordCounts(tx: EntityManager, processId: string, counts: Record<string, number>): Promise<void> {
    await tx.query(
      'UPDATE "import".import_process SET stage_counts = stage_counts || $2::jsonb WHERE id = $1',
      [processId, JSON.stringify(counts)],
    );
  }
}
