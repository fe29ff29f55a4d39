import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  ImportDryRunReport,
  ImportDryRunStarted,
  ImportProcessReport,
  ImportProcessView,
  ImportProgress,
  ImportStarted,
  ListImportsQuery,
  StartImportForm,
} from '@broker/contracts';
import type { OAuthPrincipal } from '@broker/auth';
import { DomainError, ErrorCode } from '@broker/errors';
import { type AdmissionGate, withTimeout } from '@broker/platform';
import type { StoredUpload } from '../storage/upload-storage-engine.js';
import { BrokerDirectory, type BrokerRef, type CompanyRef } from './broker-directory.js';
import { DryRunner } from '../pipeline/dry-run.js';
import { PipelineQueue } from '../pipeline/pipeline-queue.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { detectFileType } from './file-format.js';
import { ImportEvents } from '../events/import-events.js';
import { importProgress } from '../events/import-progress.js';
import {
  ImportProcessRepository,
  type ImportProcessRow,
  type NewImportProcess,
  type ImportReportRow,
} from './import-process.repository.js';

function clientError(message: string): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, message);
}

function epochSeconds(time: Date): number {
  return Math.floor(time.getTime() / 1000);
}

/** The spec's ImportProcess shape. */
export function toImportProcessView(row: ImportProcessRow): ImportProcessView {
  return {
    process_id: row.id,
    status: row.status,
    ...(row.fileType === 'GDV' ? { companies: row.companies } : {}),
    broker: { id: row.brokerNumber, name: row.brokerName },
    start_time: epochSeconds(row.startedAt),
    end_time: row.status === 'processed' && row.endedAt ? epochSeconds(row.endedAt) : null,
    type: row.fileType,
    ...(row.amountOfRecords !== null ? { amount_of_records: row.amountOfRecords } : {}),
  };
}

/** How long an upload's answer waits for its first stage to be queued. */
const ENQUEUE_WAIT_MS = 2_000;

/** Dry runs in the API process: up to which size, and how many at once. */
export interface DryRunSettings {
  syncMaxBytes: number;
  gate: AdmissionGate;
}

export const DRY_RUN_SETTINGS = Symbol('DRY_RUN_SETTINGS');

/** Who asked, as a process records it: `user:<sub>` or `service:<client_id>`. */
function requesterOf(principal: OAuthPrincipal): string {
  return `${principal.kind}:${principal.subject}`;
}

@Injectable()
export class ImportService {
  private readonly logger = new Logger(ImportService.name);

  constructor(
    private readonly brokers: BrokerDirectory,
    private readonly processes: ImportProcessRepository,
    private readonly pipeline: PipelineQueue,
    private readonly events: ImportEvents,
    private readonly dryRunner: DryRunner,
    @Inject(DRY_RUN_SETTINGS) private readonly dryRuns: DryRunSettings,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** The broker the token acts for; a broker unknown in the tenant, or blocked, may not import. */
  async callerBroker(principal: OAuthPrincipal): Promise<BrokerRef> {
    const broker = await this.brokers.findBroker(principal.tenantCode, principal.brokerNumber);
    if (!broker) throw new DomainError(ErrorCode.Forbidden, `Broker ${principal.brokerNumber} is not known`);
    if (broker.blocked) throw new DomainError(ErrorCode.Forbidden, `Broker ${broker.number} is blocked`);
    return broker;
  }

  /**
   * Checks the stored upload and the form and records the process. On a refusal the caller
   * (RemoveUploadOnErrorInterceptor) removes the stored file. `requestId` names the upload in the log.
   */
  async startImport(
    principal: OAuthPrincipal,
    upload: StoredUpload | undefined,
    form: StartImportForm,
    requestId: string,
    idempotencyKey?: string,
  ): Promise<ImportStarted> {
    const { caller, process } = await this.checkedUpload(principal, upload, form);
    const { processId, created } = await this.processes.create(
      process,
      idempotencyKey ? { caller, requestedBy: requesterOf(principal), key: idempotencyKey } : undefined,
    );
    if (!created) {
      // A concurrent request with the same key recorded its process first: this upload is not needed.
      await this.storage.remove(process.storageKey).catch(() => undefined);
      return { process_id: processId };
    }
    await this.enqueueFirstStage(processId, requestId);
    return { process_id: processId };
  }

  /**
   * Beyond the spec: the same checks as startImport, then the file read and checked by the import's own stages
   * without writing anything: at once up to the synchronous size (the report, the stored file removed), as a
   * dry-run process of its own above it (read like an import, never listed).
   */
  async dryRun(
    principal: OAuthPrincipal,
    upload: StoredUpload | undefined,
    form: StartImportForm,
    requestId: string,
  ): Promise<ImportDryRunReport | ImportDryRunStarted> {
    const { process } = await this.checkedUpload(principal, upload, form);
    if (process.fileSize <= this.dryRuns.syncMaxBytes) return this.dryRunNow(process);
    const { processId } = await this.processes.create({ ...process, dryRun: true });
    await this.enqueueFirstStage(processId, requestId);
    return { process_id: processId, dry_run: true };
  }

  private async checkedUpload(
    principal: OAuthPrincipal,
    upload: StoredUpload | undefined,
    form: StartImportForm,
  ): Promise<{ caller: BrokerRef; process: NewImportProcess }> {
    if (!upload || upload.size === 0) throw clientError('file is empty');
    const fileType = detectFileType(upload.head);
    if (!fileType) throw clientError('The file is neither a GDV file nor a CSV import file');
    const caller = await this.callerBroker(principal);
    const broker = await this.targetBroker(caller, form.broker);
    const companies = await this.companies(caller, form.companies ?? []);
    if (fileType === 'GDV' && companies.length === 0) throw clientError('no companies set');
    const process: NewImportProcess = {
      broker,
      requestedBy: requesterOf(principal),
      fileType,
      fileName: upload.originalname,
      fileSize: upload.size,
      fileSha256: upload.sha256,
      storageKey: upload.storageKey,
      companies,
    };
    return { caller, process };
  }

  /** Bounded: Redis that went away since the upload was admitted must not hold the answer; the sweeper starts it. */
  private async enqueueFirstStage(processId: string, requestId: string): Promise<void> {
    await withTimeout(this.pipeline.enqueue({ processId, from: 'uploaded' }), ENQUEUE_WAIT_MS, 'redis').catch(
      (error: unknown) =>
        this.logger.warn(
          { err: error, reqId: requestId },
          `Import ${processId} recorded, its first stage not yet queued`,
        ),
    );
  }

  /** A dry run in this process, at most DRY_RUN settings' `atOnce` of them; the stored file is removed after. */
  private async dryRunNow(process: NewImportProcess): Promise<ImportDryRunReport> {
    const release = await this.dryRuns.gate.enter();
    if (!release)
      throw new DomainError(ErrorCode.Overloaded, 'Too many dry runs at once; try again shortly', [], {
        'Retry-After': '5',
      });
    try {
      const outcome = await this.dryRunner.run(
        async (tx) => ({
          id: await this.processes.insert(tx, { ...process, dryRun: true }),
          status: 'uploaded',
          fileType: process.fileType,
          fileSize: process.fileSize,
          fileSha256: process.fileSha256,
          storageKey: process.storageKey,
          dryRun: true,
          cancelRequestedBy: null,
        }),
        { progress: () => undefined },
      );
      return {
        dry_run: true,
        status: outcome.rejection ? 'failed' : 'processed',
        type: process.fileType,
        file: { name: process.fileName, size: process.fileSize, sha256: process.fileSha256 },
        failure_reason: outcome.rejection,
        counts: outcome.counts,
        issues: outcome.issues,
        issue_count: outcome.issueCount,
      };
    } finally {
      release();
      await this.storage.remove(process.storageKey).catch(() => undefined);
    }
  }

  /** The process the caller's Idempotency-Key created within 24 hours, if any. */
  async processOfIdempotencyKey(principal: OAuthPrincipal, key: string): Promise<string | undefined> {
    const caller = await this.callerBroker(principal);
    return this.processes.findByIdempotencyKey({ caller, requestedBy: requesterOf(principal), key });
  }

  /** The per-process report; another broker's process, or none, is a 404. */
  async report(principal: OAuthPrincipal, processId: string): Promise<ImportProcessReport> {
    const caller = await this.callerBroker(principal);
    const row = await this.processes.findReport(caller, processId);
    if (!row) throw DomainError.notFound(`No import process ${processId}`);
    return {
      process_id: row.id,
      status: row.status,
      type: row.fileType,
      file: { name: row.fileName, size: Number(row.fileSize), sha256: row.fileSha256 },
      failure_reason: row.failureReason,
      counts: row.stageCounts,
      history: row.history.map((entry) => ({
        status: entry.status,
        time: epochSeconds(new Date(entry.changedAt)),
      })),
      issues: row.issues,
      issue_count: row.issueCount,
      progress: await this.progressOf(row),
      dry_run: row.dryRun,
    };
  }

  /** With the records of the running stage when the worker published them for the status the process is in. */
  private async progressOf(row: ImportReportRow): Promise<ImportProgress> {
    const records = await this.events.lastRecords(row.id);
    const reached = row.history.map((entry) => entry.status).filter((status) => status !== 'failed');
    return importProgress(row.status, records?.status === row.status ? records : undefined, reached.at(-1));
  }

  /** A page of the caller's processes, and how many there are in all. */
  async list(
    principal: OAuthPrincipal,
    query: ListImportsQuery,
  ): Promise<{ processes: ImportProcessView[]; total: number }> {
    const caller = await this.callerBroker(principal);
    const { rows, total } = await this.processes.listVisible(caller, query);
    return { processes: rows.map(toImportProcessView), total };
  }

  private async targetBroker(caller: BrokerRef, brokerNumber: string | undefined): Promise<BrokerRef> {
    if (!brokerNumber) return caller;
    const broker = await this.brokers.findVisibleBroker(caller, brokerNumber);
    if (!broker) {
      throw new DomainError(
        ErrorCode.Forbidden,
        `Broker ${brokerNumber} is neither yours nor one of your sub-brokers`,
      );
    }
    if (broker.blocked) throw new DomainError(ErrorCode.Forbidden, `Broker ${broker.number} is blocked`);
    return broker;
  }

  private async companies(caller: BrokerRef, vuNumbers: string[]): Promise<CompanyRef[]> {
    const wanted = [...new Set(vuNumbers)];
    const found = await this.brokers.findCompanies(caller.tenantId, wanted);
    const unknown = wanted.filter((vuNumber) => !found.some((company) => company.vuNumber === vuNumber));
    if (unknown.length > 0) throw clientError(`Unknown companies: ${unknown.join(', ')}`);
    return found;
  }
}
