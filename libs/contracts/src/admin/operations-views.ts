/*
 * The administration's view of the platform's running work (beyond the spec): a tenant's import processes, its
 * brokers' webhook endpoints and the customer messages waiting in the outbox. Times are RFC 3339 strings in UTC.
 */
import type { ImportFileType, ImportPipelineStatus, ImportStatus } from '../import-process.js';
import type { PageInfo } from './admin-views.js';

/** An import process of one of the tenant's brokers, as an operator follows it. */
export interface OperatorImportView {
  id: string;
  /** The broker's number. */
  broker: string;
  status: ImportStatus;
  file_type: ImportFileType;
  file_name: string;
  dry_run: boolean;
  /** Records the file held, once read. */
  amount_of_records: number | null;
  /** How far the pipeline is, 0 to 100 (100 once processed; a failed process stays where it stopped). */
  progress_percent: number;
  started_at: string;
  ended_at: string | null;
  updated_at: string;
  failure_reason: string | null;
  /** The operator who asked to cancel it, null when nobody did. */
  cancel_requested_by: string | null;
}

export interface OperatorImportPage extends PageInfo {
  items: OperatorImportView[];
}

/** A status the process reached, and when. */
export interface ImportStatusChangeView {
  status: ImportStatus;
  changed_at: string;
}

/** A warning or a rejected record of the process's report. */
export interface ImportIssueView {
  stage: string;
  severity: 'warning' | 'rejected';
  line: number | null;
  message: string;
}

/** A process with its stage history, its first issues and what an operator may do with it. */
export interface OperatorImportDetail extends OperatorImportView {
  history: ImportStatusChangeView[];
  /** The first 100 issues, in the order they were found. */
  issues: ImportIssueView[];
  issue_count: number;
  /** The status a retry starts again from; null when the process cannot be retried (not failed, a dry run). */
  retry_from: ImportPipelineStatus | null;
  /** Whether a cancellation is possible: the process is still under way and nobody asked yet. */
  cancellable: boolean;
}

/** A broker's webhook endpoint (import events), with its health. */
export interface OperatorWebhookEndpointView {
  id: string;
  broker: string;
  /** The receiver's address: its query and path segments that look like a token shown as `…` (a receiver's secret). */
  url: string;
  event_types: string[];
  /** Since when every delivery failed, null while it is healthy. */
  failing_since: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  pending_deliveries: number;
  abandoned_deliveries: number;
  created_at: string;
}

export interface OperatorWebhookEndpointPage extends PageInfo {
  items: OperatorWebhookEndpointView[];
}

/** One attempt to deliver an event to the endpoint. */
export interface OperatorWebhookAttemptView {
  delivery_id: string;
  event_type: string;
  attempted_at: string;
  /** The receiver's HTTP status, null when it gave none (refused, timed out). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** An event for the endpoint that is not delivered (yet): pending, or abandoned after its attempts. */
export interface OperatorWebhookDeliveryView {
  id: string;
  process_id: string;
  event_type: string;
  state: 'pending' | 'abandoned';
  attempts: number;
  created_at: string;
}

export interface OperatorWebhookEndpointDetail extends OperatorWebhookEndpointView {
  /** The last 50 attempts, newest first. */
  attempts: OperatorWebhookAttemptView[];
  /** The first 50 undelivered events, oldest first. */
  undelivered: OperatorWebhookDeliveryView[];
}

/** How many deliveries a redelivery put back in line. */
export interface RedeliveryResult {
  redelivered: number;
}

/** A message to a customer (e-mail or SMS) in the outbox. */
export interface OutboxMessageView {
  id: string;
  /** The customer's broker's number. */
  broker: string;
  kind: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  /** Why the last attempt failed. */
  last_error: string | null;
  /** Whether it can be sent again: it failed or waits after failed attempts, and a link it carries is still there. */
  resendable: boolean;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

export interface OutboxMessagePage extends PageInfo {
  items: OutboxMessageView[];
}
