/** Area A: the statuses of an import process, in pipeline order (spec "States and transitions"). */
export const IMPORT_PIPELINE_STATUSES = [
  'uploaded',
  'transmitted',
  'received',
  'imported',
  'validated',
  'customersParsed',
  'customersPrepared',
  'customersAssigned',
  'customersFinalized',
  'customersDone',
  'contractsPrepare',
  'contractsPrepared',
  'contractsFinalized',
  'processed',
  'archived',
] as const;

export type ImportPipelineStatus = (typeof IMPORT_PIPELINE_STATUSES)[number];
export type ImportStatus = ImportPipelineStatus | 'failed';
export type ImportFileType = 'GDV' | 'CSV';

/** Area A response of POST /api/v1/import: the id of the process started. */
export interface ImportStarted {
  process_id: string;
}

/** Area A response: one import process as listed by GET /api/v1/list. */
export interface ImportProcessView {
  process_id: string;
  status: ImportStatus;
  /** Only for processes started from a GDV file. */
  companies?: { id: string; name: string }[];
  broker: { id: string; name: string };
  /** Seconds since the epoch. */
  start_time: number;
  /** Seconds since the epoch; set only once processed. */
  end_time: number | null;
  type: ImportFileType;
  /** Only once contracts were processed. */
  amount_of_records?: number;
}

/** Area A, beyond the spec: GET /api/v1/processes/{process_id}/report. */
export interface ImportProcessReport {
  process_id: string;
  status: ImportStatus;
  type: ImportFileType;
  file: { name: string; size: number; sha256: string };
  failure_reason: string | null;
  /** Counts per stage, e.g. customers read, contracts written. */
  counts: Record<string, number>;
  /** Every status the process went through, with epoch seconds. */
  history: { status: ImportStatus; time: number }[];
  /** Warnings and rejected records, oldest first, at most 1000; `issue_count` is the total. */
  issues: { stage: string; severity: 'warning' | 'rejected'; line: number | null; message: string }[];
  issue_count: number;
}
