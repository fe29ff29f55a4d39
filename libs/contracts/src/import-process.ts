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
/**
 * Beyond the spec: how far an import process is. `stage` is the status the worker is working towards (the process's
 * status itself once it ended); `done` and `total` count the file's records (lines) while a stage walks them, and
 * are null in the stages that work on all records at once; `percent` (0-100, whole numbers, never falling while
 * the process moves on) weighs each stage by its share of a typical import's time.
 */
export interface ImportProgress {
  stage: ImportStatus;
  done: number | null;
  total: number | null;
  percent: number;
}

/** Beyond the spec: the data of each event of GET /api/v1/processes/{id}/events. */
export interface ImportProcessEvent {
  process_id: string;
  status: ImportStatus;
  progress: ImportProgress;
}

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
  /** Beyond the spec: how far the process is. */
  progress: ImportProgress;
  /** Beyond the spec: true for a dry run (POST /api/v1/import?dry_run=true of a large file), which wrote nothing. */
  dry_run: boolean;
}

/**
 * Beyond the spec: the answer of POST /api/v1/import?dry_run=true for a file up to the synchronous size: the report
 * the import would give, with nothing written.
 */
export interface ImportDryRunReport {
  dry_run: true;
  /** What the import would end in. */
  status: 'processed' | 'failed';
  type: ImportFileType;
  file: { name: string; size: number; sha256: string };
  failure_reason: string | null;
  /** Counts per stage, as the import would record them (customersCreated, contractsUpdated, ...). */
  counts: Record<string, number>;
  /** Warnings and rejected records, oldest first, at most 1000; `issue_count` is the total. */
  issues: { stage: string; severity: 'warning' | 'rejected'; line: number | null; message: string }[];
  issue_count: number;
}

/** Beyond the spec: the answer (202) of a dry run of a file above the synchronous size; read it as an import. */
export interface ImportDryRunStarted {
  process_id: string;
  dry_run: true;
}

/** Beyond the spec: a webhook endpoint as its owner reads it (never with its secret). */
export interface WebhookEndpointView {
  id: string;
  url: string;
  event_types: ('import.status_changed' | 'import.processed' | 'import.failed')[];
  /** Epoch seconds. */
  created_at: number;
  /** Since when its deliveries keep failing (epoch seconds), or null. */
  failing_since: number | null;
  /** Set once deliveries failed for 3 days: when and why; nothing is sent to it any more. */
  disabled: { at: number; reason: string } | null;
}

/** Beyond the spec: the answer of POST /api/v1/webhooks and of a secret rotation: the only time the secret is shown. */
export interface WebhookEndpointCreated extends WebhookEndpointView {
  /** The signing secret, `whsec_` and base64 (Standard Webhooks). */
  secret: string;
}

/**
 * Beyond the spec: the body of a webhook delivery (Standard Webhooks 1.0: type, timestamp, data), what the process
 * was at its status change.
 */
export interface ImportWebhookEvent {
  type: 'import.status_changed' | 'import.processed' | 'import.failed';
  /** ISO 8601 in UTC, as Standard Webhooks' payloads carry it (the webhook-timestamp header has epoch seconds). */
  timestamp: string;
  data: {
    process_id: string;
    status: ImportStatus;
    type: ImportFileType;
    /** The broker number of the process's broker. */
    broker: string;
    failure_reason: string | null;
    amount_of_records: number | null;
  };
}

/** Beyond the spec: one delivery attempt in an endpoint's log (the last 100 are kept). */
export interface WebhookAttemptView {
  delivery_id: string;
  event_type: string;
  /** Epoch seconds, as every time of this API. */
  attempted_at: number;
  /** The receiver's HTTP status, or null when none came (refused address, timeout, connection error). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}
