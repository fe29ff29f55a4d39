import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { IMPORT_PIPELINE_STATUSES, type ImportPipelineStatus } from '@broker/contracts';
import { ImportEvents } from '../events/import-events.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { type DryRunIssue, DryRunner } from './dry-run.js';
import { type ImportProcessRecord, ImportProcessStateRepository } from './import-process-state.repository.js';
import { statusAfter } from './pipeline-definition.js';
import { StageRejection } from './stage-handler.js';

const before = (status: ImportPipelineStatus, other: ImportPipelineStatus) =>
  IMPORT_PIPELINE_STATUSES.indexOf(status) < IMPORT_PIPELINE_STATUSES.indexOf(other);

/**
 * The worker's side of a dry run of a large file: runs it (DryRunner) for the dry-run process, moving the
 * process's status along as an import's would move (so its events and progress read the same), then keeps the
 * counts and issues in the process and leaves it in contractsFinalized; the stored file is removed. A run that
 * died is started again from the file by the sweeper (nothing of it was kept); one already running elsewhere (the
 * sweeper saw its status sit while a long stage ran) is left alone.
 */
@Injectable()
export class DryRunProcess {
  constructor(
    private readonly db: DataSource,
    private readonly runner: DryRunner,
    private readonly processes: ImportProcessStateRepository,
    private readonly events: ImportEvents,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** False when another worker runs this dry run right now. A rejection of the file is thrown (StageRejection). */
  async run(process: ImportProcessRecord): Promise<boolean> {
    let status = process.status as ImportPipelineStatus;
    const reach = async (target: ImportPipelineStatus) => {
      while (before(status, target)) {
        const next = statusAfter(status)!;
        await this.processes.advance(process.id, status, next);
        await this.events.statusChanged(process.id);
        status = next;
      }
    };
    const outcome = await this.runner
      .run(
        async (tx) => {
          if (!(await this.claim(tx, process.id))) throw new AlreadyRunning();
          // Outside the run's transaction, like the issues it keeps: those of a run that died before it go.
          await this.db.query('DELETE FROM "import".import_issue WHERE process_id = $1', [process.id]);
          await reach('received');
          return this.shadowOf(tx, process);
        },
        {
          progress: this.events.recordsOf(process.id, 'received'),
          reached: reach,
          keepIssues: (issues) => this.keepIssues(process.id, issues),
        },
      )
      .catch((error: unknown) => {
        if (error instanceof AlreadyRunning) return undefined;
        throw error;
      });
    if (!outcome) return false;
    await this.db.query('UPDATE "import".import_process SET stage_counts = $2 WHERE id = $1', [
      process.id,
      outcome.counts,
    ]);
    await this.storage.remove(process.storageKey).catch(() => undefined);
    if (outcome.rejection) throw new StageRejection(outcome.rejection);
    await reach('contractsFinalized');
    return true;
  }

  /** One run per dry-run process at a time: a lock of the run's transaction, gone with it or its connection. */
  private async claim(tx: EntityManager, processId: string): Promise<boolean> {
    const [row] = await tx.query<{ claimed: boolean }[]>(
      `SELECT pg_try_advisory_xact_lock(hashtextextended('import-dry-run:' || $1, 0)) AS claimed`,
      [processId],
    );
    return row.claimed;
  }

  /** The process as a row of the run's own transaction (with its companies), for the stages to work on. */
  private async shadowOf(tx: EntityManager, process: ImportProcessRecord): Promise<ImportProcessRecord> {
    const [shadow] = await tx.query<{ id: string }[]>(
      `INSERT INTO "import".import_process (tenant_id, broker_id, requested_by, file_type, status, file_name,
                                            file_size, file_sha256, storage_key, dry_run)
       SELECT tenant_id, broker_id, requested_by, file_type, 'received', file_name, file_size, file_sha256,
              storage_key, true
         FROM "import".import_process WHERE id = $1
       RETURNING id`,
      [process.id],
    );
    await tx.query(
      `INSERT INTO "import".import_process_company (process_id, tenant_id, company_id)
       SELECT $2, tenant_id, company_id FROM "import".import_process_company WHERE process_id = $1`,
      [process.id, shadow.id],
    );
    return { ...process, id: shadow.id, status: 'received' };
  }

  /** Issues of the run kept for the process's report (outside the run's transaction, which is rolled back). */
  private async keepIssues(processId: string, issues: DryRunIssue[]): Promise<void> {
    await this.db.query(
      `INSERT INTO "import".import_issue (process_id, stage, severity, line, message)
       SELECT $1, i.stage, i.severity, i.line, i.message
         FROM jsonb_to_recordset($2::jsonb) AS i (stage text, severity text, line integer, message text)`,
      [processId, JSON.stringify(issues)],
    );
  }
}

class AlreadyRunning extends Error {
  constructor() {
    super('The dry run is running elsewhere');
  }
}
