import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { activeTraceParent } from '@broker/telemetry';
import type { ImportFileType, ImportStatus } from '@broker/contracts';
import { visibleBrokersCte } from '@broker/inventory';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { BrokerRef, CompanyRef } from './broker-directory.js';

export interface NewImportProcess {
  broker: BrokerRef;
  requestedBy: string;
  fileType: ImportFileType;
  fileName: string;
  fileSize: number;
  fileSha256: string;
  storageKey: string;
  companies: CompanyRef[];
  /** A dry run's process: never listed, never writing the inventory. */
  dryRun?: boolean;
}

export interface ImportProcessRow {
  id: string;
  status: ImportStatus;
  fileType: ImportFileType;
  brokerNumber: string;
  brokerName: string;
  startedAt: Date;
  endedAt: Date | null;
  amountOfRecords: number | null;
  companies: { id: string; name: string }[];
}

export interface ImportReportRow {
  id: string;
  status: ImportStatus;
  fileType: ImportFileType;
  fileName: string;
  fileSize: string;
  fileSha256: string;
  failureReason: string | null;
  stageCounts: Record<string, number>;
  history: { status: ImportStatus; changedAt: string }[];
  issues: { stage: string; severity: 'warning' | 'rejected'; line: number | null; message: string }[];
  issueCount: number;
  dryRun: boolean;
}

/** Issues listed in one report; the total is always given. */
export const REPORT_ISSUE_LIMIT = 1000;

/** One row of a process's status history. */
export interface StatusChange {
  id: string;
  status: ImportStatus;
}

/** A caller's Idempotency-Key: the broker its token acts for and its subject name the caller. */
export interface IdempotencyKey {
  caller: BrokerRef;
  requestedBy: string;
  key: string;
}

/** How long an Idempotency-Key names its process. */
const IDEMPOTENCY_WINDOW = "interval '24 hours'";

/** Rolls the transaction back: the caller's key names this process already. */
class KeyAlreadyUsed extends Error {
  constructor(readonly processId: string) {
    super(`Idempotency-Key already used for process ${processId}`);
  }
}

@Injectable()
export class ImportProcessRepository {
  constructor(
    private readonly db: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * The process, its companies, its first status entry and its Idempotency-Key (when given), in one transaction.
   * When the caller's key already names a process (created within 24 hours, possibly by a concurrent request that
   * committed first), nothing is written and that process's id is answered.
   */
  async create(
    process: NewImportProcess,
    idempotency?: IdempotencyKey,
  ): Promise<{ processId: string; created: boolean }> {
    try {
      const processId = await this.db.transaction(async (tx) => {
        const id = await this.insert(tx, process);
        if (idempotency) await this.claimKey(tx, idempotency, id);
        return id;
      });
      return { processId, created: true };
    } catch (error) {
      if (error instanceof KeyAlreadyUsed) return { processId: error.processId, created: false };
      throw error;
    }
  }

  /** The process the caller's Idempotency-Key created within the last 24 hours, if any. */
  async findByIdempotencyKey(key: IdempotencyKey): Promise<string | undefined> {
    const [row] = await this.db.query<{ process_id: string }[]>(
      `SELECT process_id FROM "import".upload_idempotency
        WHERE tenant_id = $1 AND broker_id = $2 AND requested_by = $3 AND idempotency_key = $4
          AND created_at >= now() - ${IDEMPOTENCY_WINDOW}`,
      [key.caller.tenantId, key.caller.brokerId, key.requestedBy, key.key],
    );
    return row?.process_id;
  }

  /** Records the key for the new process, unless it names a live process already (then KeyAlreadyUsed). */
  private async claimKey(tx: EntityManager, key: IdempotencyKey, id: string): Promise<void> {
    const names = [key.caller.tenantId, key.caller.brokerId, key.requestedBy, key.key];
    const claimed = await tx.query<{ process_id: string }[]>(
      `INSERT INTO "import".upload_idempotency AS u
         (tenant_id, broker_id, requested_by, idempotency_key, process_id)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, broker_id, requested_by, idempotency_key) DO UPDATE
          SET process_id = EXCLUDED.process_id, created_at = now()
        WHERE u.created_at < now() - ${IDEMPOTENCY_WINDOW}
       RETURNING process_id`,
      [...names, id],
    );
    if (claimed.length > 0) return;
    const [existing] = await tx.query<{ process_id: string }[]>(
      `SELECT process_id FROM "import".upload_idempotency
        WHERE tenant_id = $1 AND broker_id = $2 AND requested_by = $3 AND idempotency_key = $4`,
      names,
    );
    throw new KeyAlreadyUsed(existing.process_id);
  }

  /**
   * The process, its companies and its first status entry, in the caller's transaction (a dry run's too); with the
   * upload's trace, when it is traced.
   */
  async insert(tx: EntityManager, process: NewImportProcess): Promise<string> {
    const [{ id }] = await tx.query<[{ id: string }]>(
      `INSERT INTO "import".import_process (tenant_id, broker_id, requested_by, file_type, status, file_name,
                                            file_size, file_sha256, storage_key, dry_run, trace_parent)
         VALUES ($1, $2, $3, $4, 'uploaded', $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        process.broker.tenantId,
        process.broker.brokerId,
        process.requestedBy,
        process.fileType,
        process.fileName,
        process.fileSize,
        process.fileSha256,
        process.storageKey,
        process.dryRun ?? false,
        activeTraceParent() ?? null,
      ],
    );
    await tx.query(
      `INSERT INTO "import".import_process_company (process_id, tenant_id, company_id)
         SELECT $1, $2, unnest($3::bigint[])`,
      [id, process.broker.tenantId, process.companies.map((company) => company.id)],
    );
    await tx.query(`INSERT INTO "import".import_status_change (process_id, status) VALUES ($1, 'uploaded')`, [
      id,
    ]);
    await this.outbox.add(tx, id, 'uploaded');
    return id;
  }

  /**
   * A page of the processes of `caller`'s broker and every broker below it, newest first, and how many there are
   * in all.
   */
  async listVisible(
    caller: BrokerRef,
    page: { limit: number; offset: number },
  ): Promise<{ rows: ImportProcessRow[]; total: number }> {
    const rows = await this.db.query<(ImportProcessRow & { total: number })[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT count(*) OVER ()::int AS total, p.id, p.status, p.file_type AS "fileType", b.broker_number AS "brokerNumber", b.name AS "brokerName",
              p.started_at AS "startedAt", p.ended_at AS "endedAt", p.amount_of_records AS "amountOfRecords",
              COALESCE((SELECT json_agg(json_build_object('id', c.vu_number, 'name', c.name) ORDER BY c.vu_number)
                          FROM "import".import_process_company pc JOIN broker.company c ON c.id = pc.company_id
                         WHERE pc.process_id = p.id), '[]') AS companies
         FROM "import".import_process p
         JOIN visible_broker v ON v.id = p.broker_id
         JOIN broker.broker b ON b.id = p.broker_id
        WHERE p.tenant_id = $1 AND NOT p.dry_run
        ORDER BY p.started_at DESC, p.id
        LIMIT $3 OFFSET $4`,
      [caller.tenantId, caller.brokerId, page.limit, page.offset],
    );
    if (rows.length > 0 || page.offset === 0) return { rows, total: rows[0]?.total ?? 0 };
    // A page past the end counts no rows of its own.
    const [{ total }] = await this.db.query<{ total: number }[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT count(*)::int AS total FROM "import".import_process p JOIN visible_broker v ON v.id = p.broker_id
        WHERE p.tenant_id = $1 AND NOT p.dry_run`,
      [caller.tenantId, caller.brokerId],
    );
    return { rows, total };
  }

  /** One process of `caller`'s broker tree with its history and issues; undefined for any other process. */
  async findReport(caller: BrokerRef, processId: string): Promise<ImportReportRow | undefined> {
    const [row] = await this.db.query<ImportReportRow[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT p.id, p.status, p.file_type AS "fileType", p.file_name AS "fileName", p.file_size AS "fileSize",
              p.file_sha256 AS "fileSha256", p.failure_reason AS "failureReason", p.stage_counts AS "stageCounts",
              (SELECT json_agg(json_build_object('status', h.status, 'changedAt', h.changed_at) ORDER BY h.id)
                 FROM "import".import_status_change h WHERE h.process_id = p.id) AS history,
              COALESCE((SELECT json_agg(json_build_object('stage', i.stage, 'severity', i.severity, 'line', i.line,
                                                   'message', i.message) ORDER BY i.id)
                          FROM (SELECT * FROM "import".import_issue WHERE process_id = p.id
                                 ORDER BY id LIMIT ${REPORT_ISSUE_LIMIT}) i), '[]') AS issues,
              (SELECT count(*)::int FROM "import".import_issue WHERE process_id = p.id) AS "issueCount",
              p.dry_run AS "dryRun"
         FROM "import".import_process p JOIN visible_broker v ON v.id = p.broker_id
        WHERE p.tenant_id = $1 AND p.id = $3`,
      [caller.tenantId, caller.brokerId, processId],
    );
    return row;
  }

  /** The process when it is one of `caller`'s broker tree (the visibility of the report), with its upload's trace. */
  async findVisible(
    caller: BrokerRef,
    processId: string,
  ): Promise<{ traceParent: string | null } | undefined> {
    const [row] = await this.db.query<{ traceParent: string | null }[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT p.trace_parent AS "traceParent" FROM "import".import_process p JOIN visible_broker v ON v.id = p.broker_id
        WHERE p.tenant_id = $1 AND p.id = $3`,
      [caller.tenantId, caller.brokerId, processId],
    );
    return row;
  }

  /** The process's status changes after change `afterId`, oldest first. */
  statusChangesAfter(processId: string, afterId: string): Promise<StatusChange[]> {
    return this.db.query<StatusChange[]>(
      `SELECT id::text, status FROM "import".import_status_change
        WHERE process_id = $1 AND id > $2 ORDER BY import_status_change.id`,
      [processId, afterId],
    );
  }
}
