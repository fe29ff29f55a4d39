import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ImportFileType, ImportPipelineStatus, ImportStatus } from '@broker/contracts';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { StagingRepository } from './staging.repository.js';

export interface ImportProcessRecord {
  id: string;
  status: ImportStatus;
  fileType: ImportFileType;
  fileSize: number;
  fileSha256: string;
  storageKey: string;
  /** A dry run's process (pipeline/dry-run-process.ts runs it). */
  dryRun: boolean;
  /** The operator who asked the administration to cancel the process, if one did. */
  cancelRequestedBy: string | null;
}

const TERMINAL = `('processed', 'archived', 'failed')`;

/** The pipeline's view of import processes: guarded status transitions and their history. */
@Injectable()
export class ImportProcessStateRepository {
  constructor(
    private readonly db: DataSource,
    private readonly staging: StagingRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  async find(processId: string): Promise<ImportProcessRecord | undefined> {
    const [record] = await this.db.query<ImportProcessRecord[]>(
      `SELECT id, status, file_type AS "fileType", file_size::float8 AS "fileSize", file_sha256 AS "fileSha256",
              storage_key AS "storageKey", dry_run AS "dryRun", cancel_requested_by AS "cancelRequestedBy"
         FROM "import".import_process WHERE id = $1`,
      [processId],
    );
    return record;
  }

  /**
   * Moves the process from `from` to `to` only if it is still in `from` and no cancellation was asked for; false when
   * another run was first or an operator cancels it.
   */
  async advance(processId: string, from: ImportPipelineStatus, to: ImportPipelineStatus): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Wrapped in a SELECT: the driver answers a bare UPDATE ... RETURNING with [rows, count].
      const moved = await tx.query<{ id: string }[]>(
        `WITH moved AS (
           UPDATE "import".import_process
              SET status = $3, ended_at = CASE WHEN $3 = 'processed' THEN now() ELSE ended_at END,
                  archived_at = CASE WHEN $3 = 'archived' THEN now() ELSE archived_at END
            WHERE id = $1 AND status = $2 AND cancel_requested_at IS NULL RETURNING id)
         SELECT id FROM moved`,
        [processId, from, to],
      );
      if (moved.length === 0) return false;
      await tx.query('INSERT INTO "import".import_status_change (process_id, status) VALUES ($1, $2)', [
        processId,
        to,
      ]);
      await this.outbox.add(tx, processId, to);
      return true;
    });
  }

  /**
   * Ends an unfinished process as failed with a reason the user can act on. Its work tables are emptied as for a
   * finished one (they hold the file's personal data); the issues and counts stay for the report. Customers it
   * wrote before failing are made searchable first (their documents wait for a later stage otherwise).
   */
  async fail(processId: string, reason: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const failed = await tx.query<{ id: string }[]>(
        `WITH failed AS (
           UPDATE "import".import_process SET status = 'failed', failure_reason = $2, ended_at = now()
            WHERE id = $1 AND status NOT IN ${TERMINAL} RETURNING id)
         SELECT id FROM failed`,
        [processId, reason],
      );
      if (failed.length > 0) {
        await this.staging.refreshSearchOrLog(tx, processId);
        await tx.query(
          `INSERT INTO "import".import_status_change (process_id, status) VALUES ($1, 'failed')`,
          [processId],
        );
        await this.outbox.add(tx, processId, 'failed');
        await this.staging.release(tx, processId);
      }
    });
  }

  /** Processes that have sat in one of the statuses longer than its threshold: candidates for the sweeper. */
  async findIdle(
    thresholds: { status: ImportPipelineStatus; idleMs: number }[],
  ): Promise<{ id: string; status: ImportPipelineStatus }[]> {
    return this.db.query(
      `SELECT p.id, p.status
         FROM "import".import_process p
         JOIN unnest($1::text[], $2::float8[]) AS threshold (status, idle_ms) ON threshold.status = p.status
        WHERE p.updated_at < now() - make_interval(secs => threshold.idle_ms / 1000.0)
        ORDER BY p.updated_at LIMIT 500`,
      [thresholds.map((threshold) => threshold.status), thresholds.map((threshold) => threshold.idleMs)],
    );
  }
}
