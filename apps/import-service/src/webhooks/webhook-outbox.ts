import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ImportStatus, WebhookEventType } from '@broker/contracts';

/** The event types a status change is told as. */
function eventTypesOf(status: ImportStatus): WebhookEventType[] {
  if (status === 'processed') return ['import.status_changed', 'import.processed'];
  if (status === 'failed') return ['import.status_changed', 'import.failed'];
  return ['import.status_changed'];
}

/**
 * Writes the deliveries of a status change to the outbox (import.webhook_delivery), in the transaction of the
 * change itself: one per event type and enabled endpoint that asked for it, of the process's broker or any broker
 * above it. Nothing is written for a dry run. The payload (Standard Webhooks' `type`, `timestamp`, `data`) is what
 * the process is at that moment.
 */
@Injectable()
export class WebhookOutbox {
  async add(tx: EntityManager, processId: string, status: ImportStatus): Promise<void> {
    await tx.query(
      `WITH RECURSIVE process AS (
         SELECT p.id, p.tenant_id, p.broker_id, p.file_type, p.failure_reason, p.amount_of_records, b.broker_number
           FROM "import".import_process p JOIN broker.broker b ON b.id = p.broker_id
          WHERE p.id = $1 AND NOT p.dry_run),
       owner (tenant_id, id, parent_id) AS (
         SELECT b.tenant_id, b.id, b.parent_id FROM broker.broker b JOIN process p ON b.id = p.broker_id
         UNION ALL
         SELECT b.tenant_id, b.id, b.parent_id FROM broker.broker b
           JOIN owner o ON b.tenant_id = o.tenant_id AND b.id = o.parent_id)
       INSERT INTO "import".webhook_delivery (endpoint_id, process_id, event_type, payload)
       SELECT e.id, p.id, t.type,
              jsonb_build_object(
                'type', t.type,
                'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'data', jsonb_build_object('process_id', p.id, 'status', $2::text, 'type', p.file_type,
                                           'broker', p.broker_number, 'failure_reason', p.failure_reason,
                                           'amount_of_records', p.amount_of_records))
         FROM process p
         JOIN owner o ON o.tenant_id = p.tenant_id
         JOIN "import".webhook_endpoint e ON e.tenant_id = o.tenant_id AND e.broker_id = o.id
         CROSS JOIN unnest($3::text[]) AS t (type)
        WHERE e.disabled_at IS NULL AND t.type = ANY (e.event_types)
        ORDER BY e.id, t.type DESC`,
      [processId, status, eventTypesOf(status)],
    );
  }
}
