import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ImportPipelineStatus } from '@broker/contracts';
import { REPORT_ISSUE_LIMIT } from '../imports/import-process.repository.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import type { ImportProcessRecord } from './import-process-state.repository.js';
import { statusAfter } from './pipeline-definition.js';
import type { SqlStage } from './sql-stage.js';
import type { StageProgress, StageRejection } from './stage-handler.js';
import { ContractsExtractStage } from './stages/contracts-extract.stage.js';
import { ContractsCheckStage } from './stages/contracts-check.stage.js';
import { ContractsWriteStage } from './stages/contracts-write.stage.js';
import { CustomerContactsWriteStage } from './stages/customer-contacts-write.stage.js';
import { CustomersAssignStage } from './stages/customers-assign.stage.js';
import { CustomersParseStage } from './stages/customers-parse.stage.js';
import { CustomersPrepareStage } from './stages/customers-prepare.stage.js';
import { CustomersWriteStage } from './stages/customers-write.stage.js';
import { ImportStage } from './stages/import.stage.js';
import { StagingRepository } from './staging.repository.js';
import { ValidateStage } from './stages/validate.stage.js';

/** The SQL stages after decoding, in pipeline order, up to the contracts' upsert: what a dry run runs. */
export const DRY_RUN_SQL_STAGES = [
  ValidateStage,
  CustomersParseStage,
  CustomersPrepareStage,
  CustomersAssignStage,
  CustomersWriteStage,
  CustomerContactsWriteStage,
  ContractsExtractStage,
  ContractsCheckStage,
  ContractsWriteStage,
];

export type DryRunIssue = {
  stage: string;
  severity: 'warning' | 'rejected';
  line: number | null;
  message: string;
};

/**
 * What a dry run found: the counts and issues (the first REPORT_ISSUE_LIMIT, and how many in all) the import would
 * record, and why it would fail, if it would.
 */
export interface DryRunOutcome {
  counts: Record<string, number>;
  issues: DryRunIssue[];
  issueCount: number;
  rejection: string | null;
}

/** Issues handed to `DryRunHooks.keepIssues` at a time. */
const ISSUE_PAGE = 5_000;

export interface DryRunHooks {
  /** Records of the decoding stage, as the pipeline reports them. */
  progress: StageProgress;
  /** After each stage, the status an import would now be in (outside the dry run's transaction). */
  reached?: (status: ImportPipelineStatus) => Promise<void>;
  /** Every issue, oldest first, a page at a time, before the rollback (to keep them elsewhere). */
  keepIssues?: (issues: DryRunIssue[]) => Promise<void>;
}

/** Ends the dry run's transaction with a rollback, carrying what it found. */
class RolledBack extends Error {
  constructor(readonly outcome: DryRunOutcome) {
    super('Dry run rolled back');
  }
}

/**
 * Runs an import's stages, from decoding the file to the contracts' upsert, in one transaction that is always
 * rolled back: the same code, the same checks and the same counts as the import, and nothing of it is ever seen
 * by another transaction or kept. The process it runs for is a row the transaction writes itself (`shadow`), so
 * nothing outside is locked but what an import's stages lock (the customers and contracts it would write), until
 * the rollback. The search documents are left out: they are written beside the contracts' stage (SqlStage.besides),
 * which a dry run does not run.
 */
export class DryRunner {
  constructor(
    private readonly db: DataSource,
    private readonly importStage: ImportStage,
    private readonly sqlStages: SqlStage[],
  ) {}

  async run(
    shadow: (tx: EntityManager) => Promise<ImportProcessRecord>,
    hooks: DryRunHooks,
  ): Promise<DryRunOutcome> {
    try {
      await this.db.transaction(async (tx) => {
        const process = await shadow(tx);
        const rejection = await this.runStages(tx, process, hooks);
        if (hooks.keepIssues) await this.pageIssues(tx, process.id, hooks.keepIssues);
        throw new RolledBack(await this.outcome(tx, process.id, rejection));
      });
    } catch (error) {
      if (error instanceof RolledBack) return error.outcome;
      throw error;
    }
    throw new Error('A dry run must not commit');
  }

  private async runStages(
    tx: EntityManager,
    process: ImportProcessRecord,
    hooks: DryRunHooks,
  ): Promise<StageRejection | undefined> {
    const decoded = await this.importStage.runWithin(tx, process, hooks.progress);
    if (decoded) return decoded;
    await hooks.reached?.('imported');
    for (const stage of this.sqlStages) {
      const rejection = await stage.runWithin(tx, process);
      if (rejection) return rejection;
      await hooks.reached?.(statusAfter(stage.from)!);
    }
    return undefined;
  }

  private async outcome(
    tx: EntityManager,
    processId: string,
    rejection: StageRejection | undefined,
  ): Promise<DryRunOutcome> {
    const [process] = await tx.query<{ counts: Record<string, number>; issueCount: number }[]>(
      `SELECT stage_counts AS counts,
              (SELECT count(*)::int FROM "import".import_issue WHERE process_id = $1) AS "issueCount"
         FROM "import".import_process WHERE id = $1`,
      [processId],
    );
    const issues = await this.issuesAfter(tx, processId, '0', REPORT_ISSUE_LIMIT);
    return {
      ...process,
      issues: issues.map(({ id: _id, ...issue }) => issue),
      rejection: rejection?.message ?? null,
    };
  }

  private async pageIssues(
    tx: EntityManager,
    processId: string,
    keep: (issues: DryRunIssue[]) => Promise<void>,
  ): Promise<void> {
    for (let after = '0'; ;) {
      const page = await this.issuesAfter(tx, processId, after, ISSUE_PAGE);
      if (page.length === 0) return;
      await keep(page.map(({ id: _id, ...issue }) => issue));
      after = page[page.length - 1].id;
    }
  }

  private issuesAfter(tx: EntityManager, processId: string, afterId: string, limit: number) {
    return tx.query<(DryRunIssue & { id: string })[]>(
      `SELECT id::text, stage, severity, line, message FROM "import".import_issue
        WHERE process_id = $1 AND id > $2 ORDER BY import_issue.id LIMIT $3`,
      [processId, afterId, limit],
    );
  }
}

/** DryRunner with the stages it runs, for the API (small files) and the worker (large ones). */
@Module({})
export class DryRunModule {
  static forRoot(storage: FileStorage): DynamicModule {
    return {
      module: DryRunModule,
      providers: [
        { provide: FILE_STORAGE, useValue: storage },
        StagingRepository,
        ImportStage,
        ...DRY_RUN_SQL_STAGES,
        {
          provide: DryRunner,
          useFactory: (db: DataSource, importStage: ImportStage, ...sqlStages: SqlStage[]) =>
            new DryRunner(db, importStage, sqlStages),
          inject: [DataSource, ImportStage, ...DRY_RUN_SQL_STAGES],
        },
      ],
      exports: [DryRunner],
    };
  }
}
