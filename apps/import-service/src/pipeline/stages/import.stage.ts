import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CsvFormatError, readCsvImport } from '../../formats/csv-import-reader.js';
import { readGdvImport } from '../../formats/gdv-imported-entities.js';
import type { ImportedEntityEvent } from '../../formats/imported-entities.js';
import { FILE_STORAGE, type FileStorage } from '../../storage/file-storage.js';
import type { ImportProcessRecord } from '../import-process-state.repository.js';
import { type StageHandler, type StageProgress, StageRejection } from '../stage-handler.js';
import { type StagingBatch, StagingRepository } from '../staging.repository.js';
import { storableText, unstorableCharacterIn } from '../storable-text.js';

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

function nothingRead(counts: StageCounts): StageRejection {
  const rejected =
    counts.rejectedRecords > 0 ? ` (${counts.rejectedRecords} rejected; the report says why)` : '';
  return new StageRejection(`The file contains no customers or contracts that could be read${rejected}`);
}

/**
 * The event as it can be staged: a customer or contract holding text PostgreSQL cannot store is a rejected
 * record (bad data, not a fault worth retrying); messages quoting such text are made storable.
 */
function storable(event: ImportedEntityEvent): ImportedEntityEvent {
  if (event.kind === 'rejected' || event.kind === 'warning') {
    return { ...event, message: storableText(event.message) };
  }
  const record = event.kind === 'customer' ? event.customer : event.contract;
  const character = unstorableCharacterIn(record);
  if (!character) return event;
  const message = `The ${event.kind} record holds ${character}, which cannot be stored; it is not imported`;
  return { kind: 'rejected', line: record.line, message };
}

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

  async run(process: ImportProcessRecord, progress: StageProgress): Promise<void> {
    const rejection = await this.db.transaction((tx) => this.runWithin(tx, process, progress));
    // Thrown only after the commit, so the failed process keeps the issues found up to its failure.
    if (rejection) throw rejection;
  }

  /** The stage's work in the caller's transaction (a dry run's); a rejection of the file is returned. */
  async runWithin(
    tx: EntityManager,
    process: ImportProcessRecord,
    progress: StageProgress,
  ): Promise<StageRejection | undefined> {
    await this.staging.useBulkMemory(tx);
    await this.staging.clear(tx, process.id, ISSUE_STAGE);
    const { counts, unreadable } = await this.stage(tx, process, progress);
    await this.staging.recordCounts(tx, process.id, { ...counts });
    await this.staging.analyze(tx, 'staged_customer', 'staged_contract');
    if (unreadable) return new StageRejection(unreadable);
    return counts.customersRead === 0 && counts.contractsRead === 0 ? nothingRead(counts) : undefined;
  }

  /**
   * Batches are written while the next one is decoded (at most one write in flight), so decoding and
   * PostgreSQL's ingest overlap. A CSV file that cannot be read on ends the staging with the reason.
   */
  private async stage(
    tx: EntityManager,
    process: ImportProcessRecord,
    progress: StageProgress,
  ): Promise<{ counts: StageCounts; unreadable?: string }> {
    const counts: StageCounts = { customersRead: 0, contractsRead: 0, rejectedRecords: 0, warnings: 0 };
    let batch = emptyBatch();
    let writing: Promise<void> = Promise.resolve();
    const write = async (full: StagingBatch) => {
      await writing;
      writing = this.staging.write(tx, process.id, ISSUE_STAGE, full);
      // Observed at the next await; a failure meanwhile must not count as unhandled.
      writing.catch(() => undefined);
    };
    let unreadable: string | undefined;
    try {
      for await (const events of this.entitiesOf(process, progress)) {
        for (const event of events) this.add(batch, storable(event), counts);
        if (batch.customers.length + batch.contracts.length + batch.issues.length >= BATCH_SIZE) {
          await write(batch);
          batch = emptyBatch();
        }
      }
    } catch (error) {
      if (!(error instanceof CsvFormatError)) throw error;
      unreadable = error.message;
    }
    await write(batch);
    await writing;
    return { counts, unreadable };
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

  /** The file's events, a chunk's or a CSV row's at a time; its lines read are the progress. */
  private async *entitiesOf(
    process: ImportProcessRecord,
    progress: StageProgress,
  ): AsyncGenerator<ImportedEntityEvent[]> {
    const total = await countLines(this.storage.read(process.storageKey));
    const file = this.storage.read(process.storageKey);
    const content = linesCounted(file as AsyncIterable<Uint8Array>, (done) => progress({ done, total }));
    try {
      yield* process.fileType === 'GDV' ? readGdvImport(content) : readCsvImport(content);
    } finally {
      // A reader that stopped early (bad header, failed write) must not leave the file handle open.
      file.destroy();
    }
  }
}

const NEWLINE = 0x0a;

function newlinesIn(chunk: Uint8Array): number {
  let count = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** The lines of a file (a last line without its line break counts). */
async function countLines(file: AsyncIterable<Uint8Array>): Promise<number> {
  let lines = 0;
  let last: number | undefined;
  for await (const chunk of file) {
    lines += newlinesIn(chunk);
    if (chunk.length > 0) last = chunk[chunk.length - 1];
  }
  return last === undefined || last === NEWLINE ? lines : lines + 1;
}

/** Passes the chunks on, telling `linesRead` how many line breaks have passed so far. */
async function* linesCounted(
  chunks: AsyncIterable<Uint8Array>,
  linesRead: (lines: number) => void,
): AsyncGenerator<Uint8Array> {
  let lines = 0;
  for await (const chunk of chunks) {
    lines += newlinesIn(chunk);
    linesRead(lines);
    yield chunk;
  }
}
