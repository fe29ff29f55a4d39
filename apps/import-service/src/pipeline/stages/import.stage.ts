import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CsvFormatError, readCsvImport } from '../../formats/csv-import-reader.js';
import { readGdvImport } from '../../formats/gdv-imported-entities.js';
import type { ImportedEntityEvent } from '../../formats/imported-entities.js';
import { FILE_STORAGE, type FileStorage } from '../../storage/file-storage.js';
import type { ImportProcessRecord } from '../import-process-state.repository.js';
import { type StageHandler, StageRejection } from '../stage-handler.js';
import { type StagingBatch, StagingRepository } from '../staging.repository.js';

const BATCH_SIZE = 5_000;

/** Issues of this stage are filed under the status it produces. */
const ISSUE_STAGE = 'imported';

interface StageCounts {
  customersRead: number;
  contractsRead: number;
  rejectedRecords: number;
  warnings: number;
}

const emptyBatch = (): StagingBatch => ({ customers: [], contracts: [], issues: [] });

/**
 * received → imported: the stored file is decoded record by record (GDV or CSV) into the staging tables, in
 * batches, with every warning and rejected record kept as an issue with its line. One transaction: a re-run
 * after a crash starts from a clean slate.
 */
@Injectable()
export class ImportStage implements StageHandler {
  readonly from = 'received';

  constructor(
    private readonly db: DataSource,
    private readonly staging: StagingRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  async run(process: ImportProcessRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.staging.clear(tx, process.id, ISSUE_STAGE);
      const counts = await this.stage(tx, process);
      if (counts.customersRead === 0 && counts.contractsRead === 0) {
        throw new StageRejection('The file contains no customers or contracts that could be read');
      }
      await this.staging.recordCounts(tx, process.id, { ...counts });
      await this.staging.analyze(tx, 'staged_customer', 'staged_contract');
    });
  }

  /**
   * Batches are written while the next one is decoded (at most one write in flight), so decoding and
   * PostgreSQL's ingest overlap.
   */
  private async stage(tx: EntityManager, process: ImportProcessRecord): Promise<StageCounts> {
    const counts: StageCounts = { customersRead: 0, contractsRead: 0, rejectedRecords: 0, warnings: 0 };
    let batch = emptyBatch();
    let writing: Promise<void> = Promise.resolve();
    const write = async (full: StagingBatch) => {
      await writing;
      writing = this.staging.write(tx, process.id, ISSUE_STAGE, full);
      // Observed at the next await; a failure meanwhile must not count as unhandled.
      writing.catch(() => undefined);
    };
    for await (const event of this.entitiesOf(process)) {
      this.add(batch, event, counts);
      if (batch.customers.length + batch.contracts.length + batch.issues.length >= BATCH_SIZE) {
        await write(batch);
        batch = emptyBatch();
      }
    }
    await write(batch);
    await writing;
    return counts;
  }

  private add(batch: StagingBatch, event: ImportedEntityEvent, counts: StageCounts): void {
    switch (event.kind) {
      case 'customer':
        batch.customers.push({ seq: counts.customersRead++, customer: event.customer });
        return;
      case 'contract':
        batch.contracts.push({ seq: counts.contractsRead++, contract: event.contract });
        return;
      case 'rejected':
        counts.rejectedRecords++;
        batch.issues.push({ severity: 'rejected', line: event.line, message: event.message });
        return;
      case 'warning':
        counts.warnings++;
        batch.issues.push({ severity: 'warning', line: event.line, message: event.message });
        return;
    }
  }

  private async *entitiesOf(process: ImportProcessRecord): AsyncGenerator<ImportedEntityEvent> {
    const file = this.storage.read(process.storageKey);
    const content = file as AsyncIterable<Uint8Array>;
    try {
      yield* process.fileType === 'GDV' ? readGdvImport(content) : readCsvImport(content);
    } catch (error) {
      if (error instanceof CsvFormatError) throw new StageRejection(error.message);
      throw error;
    } finally {
      // A reader that stopped early (bad header, failed write) must not leave the file handle open.
      file.destroy();
    }
  }
}
