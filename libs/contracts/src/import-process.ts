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
