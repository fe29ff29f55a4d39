import type { DataSource, EntityManager } from 'typeorm';
import {
  IMPORT_PIPELINE_STATUSES,
  type ImportPipelineStatus,
  type ImportStatus,
  type OperatorImportDetail,
  type OperatorImportPage,
  type OperatorImportSort,
  type OperatorImportView,
  type StageJob,
} from '@broker/contracts';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { brokerIdOf } from './broker-lookup.js';
import { conflict, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { isUuid, SqlFilter, utc } from './sql.js';
import { tenantIdOf } from './tenants.js';

/**
 * Puts a stage of a process on the pipeline's queue (the import worker runs it). Without one the pipeline's
 * sweeper resumes the process once it has sat idle for IMPORT_STAGE_IDLE_MS.
 */
export interface ImportPipelineQueue {
  enqueue(job: StageJob): Promise<void>;
}

export interface ImportProcessFilter {
  status?: ImportStatus;
  broker?: string;
  from?: string;
  to?: string;
  sort: OperatorImportSort;
}

const TERMINAL: readonly ImportStatus[] = ['processed', 'archived', 'failed'];
const PROCESSED_INDEX = IMPORT_PIPELINE_STATUSES.indexOf('processed');
/** The stage that reads the stored file into the work tables: a failed process's work rows are gone, so a retry
 * of a later stage starts again here (every stage after it is idempotent, the inventory's writes upserts). */
const FILE_READ_STATUS: ImportPipelineStatus = 'received';

interface ProcessRow extends Omit<OperatorImportView, 'progress_percent'> {
  /** The last status before `failed`, or the status itself. */
  reached: ImportStatus;
}

const PROCESS_VIEW = `p.id::text, b.broker_number AS broker, p.status, p.file_type, p.file_name, p.dry_run,
  p.amount_of_records, ${utc('p.started_at')} AS started_at, ${utc('p.ended_at')} AS ended_at,
  ${utc('p.updated_at')} AS updated_at, p.failure_reason, p.cancel_requested_by,
  CASE WHEN p.status = 'failed' THEN coalesce((SELECT c.status FROM "import".import_status_change c
    WHERE c.process_id = p.id AND c.status <> 'failed' ORDER BY c.id DESC LIMIT 1), 'uploaded') ELSE p.status END
    AS reached`;
const PROCESS_FROM = `"import".import_process p
  JOIN broker.broker b ON b.tenant_id = p.tenant_id AND b.id = p.broker_id`;
const SORT_SQL: Record<OperatorImportSort, string> = {
  '-started_at': 'p.started_at DESC, p.id DESC',
  started_at: 'p.started_at, p.id',
  '-updated_at': 'p.updated_at DESC, p.id DESC',
  updated_at: 'p.updated_at, p.id',
};

function progressOf(status: ImportStatus): number {
  const index = IMPORT_PIPELINE_STATUSES.indexOf(status as ImportPipelineStatus);
  return index < 0 ? 0 : Math.round((Math.min(index, PROCESSED_INDEX) / PROCESSED_INDEX) * 100);
}

function viewOf({ reached, ...row }: ProcessRow): OperatorImportView {
  return { ...row, progress_percent: progressOf(reached) };
}

/** Where a retry of a process that failed in the stage after `reached` starts again. */
function retryStartOf(reached: ImportStatus): ImportPipelineStatus {
  const index = IMPORT_PIPELINE_STATUSES.indexOf(reached as ImportPipelineStatus);
  const fileRead = IMPORT_PIPELINE_STATUSES.indexOf(FILE_READ_STATUS);
  return index >= 0 && index <= fileRead ? (reached as ImportPipelineStatus) : FILE_READ_STATUS;
}

/**
 * The import processes of a tenant's brokers, as its operators see and act on them: a failed process is retried from
 * the stage that failed (from reading the file again when that stage's work rows are gone), a stuck one cancelled.
 * Both are audited and guarded (a second click finds the process changed: 409), and the pipeline's own worker does
 * the work, so a stage still running never races the operator.
 */
export class ImportProcessOperations {
  constructor(
    private readonly db: DataSource,
    private readonly pipeline: ImportPipelineQueue | null,
  ) {}

  async list(
    tenantCode: string,
    filter: ImportProcessFilter,
    page: PageRequest,
  ): Promise<OperatorImportPage> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const where = new SqlFilter().where('p.tenant_id = ?', tenantId);
    if (filter.status) where.where('p.status = ?', filter.status);
    if (filter.broker) where.where('p.broker_id = ?', (await brokerIdOf(db, tenantId, filter.broker)) ?? '0');
    if (filter.from) where.where('p.started_at >= ?::timestamptz', filter.from);
    if (filter.to) where.where('p.started_at < ?::timestamptz', filter.to);
    const found = await pageOf<ProcessRow>(
      db,
      {
        select: PROCESS_VIEW,
        from: `${PROCESS_FROM} WHERE ${where.clause}`,
        orderBy: SORT_SQL[filter.sort],
        parameters: where.parameters,
      },
      page,
    );
    return { ...found, items: found.items.map(viewOf) };
  }

  /** The process as the list shows it (its live view's events carry this). */
  async view(tenantCode: string, processId: string): Promise<OperatorImportView> {
    const db = this.db.manager;
    return viewOf(await this.row(db, await tenantIdOf(db, tenantCode), processId));
  }

  /**
   * For a live list of processes: the views of the processes `ids` (those of the tenant), and those of the tenant's
   * processes started in the last `recentSeconds`.
   */
  async watch(
    tenantCode: string,
    ids: string[],
    recentSeconds: number,
  ): Promise<{ watched: OperatorImportView[]; recent: OperatorImportView[] }> {
    const db = this.db.manager;
    const rows = await db.query<(ProcessRow & { is_watched: boolean })[]>(
      `SELECT ${PROCESS_VIEW}, p.id = ANY($2::uuid[]) AS is_watched FROM ${PROCESS_FROM}
        WHERE p.tenant_id = $1 AND (p.id = ANY($2::uuid[]) OR p.started_at >= now() - make_interval(secs => $3))
        ORDER BY p.started_at, p.id`,
      [await tenantIdOf(db, tenantCode), ids.filter(isUuid), recentSeconds],
    );
    const views = rows.map(({ is_watched, ...row }) => ({ watched: is_watched, view: viewOf(row) }));
    return {
      watched: views.filter((row) => row.watched).map((row) => row.view),
      recent: views.filter((row) => !row.watched).map((row) => row.view),
    };
  }

  async get(tenantCode: string, processId: string): Promise<OperatorImportDetail> {
    const db = this.db.manager;
    const row = await this.row(db, await tenantIdOf(db, tenantCode), processId);
    const history = await db.query<OperatorImportDetail['history']>(
      `SELECT status, ${utc('changed_at')} AS changed_at FROM "import".import_status_change
        WHERE process_id = $1 ORDER BY id`,
      [processId],
    );
    const issues = await db.query<OperatorImportDetail['issues']>(
      `SELECT stage, severity, line, message FROM "import".import_issue WHERE process_id = $1 ORDER BY id LIMIT 100`,
      [processId],
    );
    const [{ count }] = await db.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM "import".import_issue WHERE process_id = $1',
      [processId],
    );
    return {
      ...viewOf(row),
      history,
      issues,
      issue_count: count,
      retry_from: row.status === 'failed' && !row.dry_run ? retryStartOf(row.reached) : null,
      cancellable: !TERMINAL.includes(row.status) && row.cancel_requested_by === null,
    };
  }

  /** retryImportProcess: a failed process back in the status its failed stage (or the file's reading) starts from. */
  async retry(context: WriteContext, tenantCode: string, processId: string): Promise<OperatorImportDetail> {
    const job = await inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const row = await this.row(tx, tenantId, processId, 'FOR UPDATE OF p');
      if (row.status !== 'failed')
        throw conflict(`Only a failed import is retried; this one is ${row.status}`);
      if (row.dry_run) throw conflict('A dry run is not retried: upload the file again for a new dry run');
      const from = retryStartOf(row.reached);
      await tx.query(
        `UPDATE "import".import_process
            SET status = $2, failure_reason = NULL, ended_at = NULL, cancel_requested_at = NULL,
                cancel_requested_by = NULL
          WHERE id = $1`,
        [processId, from],
      );
      await tx.query('INSERT INTO "import".import_status_change (process_id, status) VALUES ($1, $2)', [
        processId,
        from,
      ]);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'retryImportProcess',
        target: `import-processes/${processId}`,
        changes: { status: from, failure_reason: row.failure_reason },
      });
      return { processId, from };
    });
    await this.pipeline?.enqueue(job);
    return this.get(tenantCode, processId);
  }

  /**
   * cancelImportProcess: asks the pipeline's worker to end a process that is under way as failed. The worker does so
   * when it next takes up the process's stage (at once: the stage is put on the queue again; a stage still running
   * ends without moving the process on).
   */
  async cancel(context: WriteContext, tenantCode: string, processId: string): Promise<OperatorImportDetail> {
    const job = await inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const row = await this.row(tx, tenantId, processId, 'FOR UPDATE OF p');
      if (TERMINAL.includes(row.status)) throw conflict(`The import is ${row.status} already`);
      if (row.cancel_requested_by !== null)
        throw conflict(`${row.cancel_requested_by} asked to cancel this import already`);
      await tx.query(
        `UPDATE "import".import_process SET cancel_requested_at = now(), cancel_requested_by = $2 WHERE id = $1`,
        [processId, context.actor.subject],
      );
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'cancelImportProcess',
        target: `import-processes/${processId}`,
        changes: { status: row.status },
      });
      return { processId, from: row.status as ImportPipelineStatus };
    });
    await this.pipeline?.enqueue(job);
    return this.get(tenantCode, processId);
  }

  private async row(db: EntityManager, tenantId: string, processId: string, lock = ''): Promise<ProcessRow> {
    const [row] = isUuid(processId)
      ? await db.query<ProcessRow[]>(
          `SELECT ${PROCESS_VIEW} FROM ${PROCESS_FROM} WHERE p.tenant_id = $1 AND p.id = $2::uuid ${lock}`,
          [tenantId, processId],
        )
      : [];
    if (!row) throw notFound(`Import process ${processId} does not exist`);
    return row;
  }
}
