import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WebhookEventType } from '@broker/contracts';
import type { BrokerRef } from '../imports/broker-directory.js';

export interface WebhookEndpointRow {
  id: string;
  url: string;
  eventTypes: WebhookEventType[];
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export interface WebhookAttemptRow {
  deliveryId: string;
  eventType: string;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const ENDPOINT_COLUMNS = `id, url, event_types AS "eventTypes", created_at AS "createdAt",
  failing_since AS "failingSince", disabled_at AS "disabledAt", disabled_reason AS "disabledReason"`;

/** How long a rotated-out secret still signs deliveries beside the new one. */
export const PREVIOUS_SECRET_HOURS = 24;

/** A broker's webhook endpoints: each belongs to the broker its creator's token acted for. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Registers the endpoint unless the owner has `limit` already (undefined then): counted and inserted under a lock
   * of the owner's, so that concurrent registrations cannot pass the limit together.
   */
  async create(
    owner: BrokerRef,
    createdBy: string,
    endpoint: { url: string; eventTypes: WebhookEventType[]; secretCiphertext: string },
    limit: number,
  ): Promise<WebhookEndpointRow | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('webhook-endpoints:' || $1 || ':' || $2, 0))`,
        [owner.tenantId, owner.brokerId],
      );
      const [{ count }] = await tx.query<{ count: number }[]>(
        'SELECT count(*)::int AS count FROM "import".webhook_endpoint WHERE tenant_id = $1 AND broker_id = $2',
        [owner.tenantId, owner.brokerId],
      );
      if (count >= limit) return undefined;
      const [row] = await tx.query<WebhookEndpointRow[]>(
        `INSERT INTO "import".webhook_endpoint (tenant_id, broker_id, created_by, url, event_types, secret_ciphertext)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ENDPOINT_COLUMNS}`,
        [
          owner.tenantId,
          owner.brokerId,
          createdBy,
          endpoint.url,
          endpoint.eventTypes,
          endpoint.secretCiphertext,
        ],
      );
      return row;
    });
  }

  list(owner: BrokerRef): Promise<WebhookEndpointRow[]> {
    return this.db.query<WebhookEndpointRow[]>(
      `SELECT ${ENDPOINT_COLUMNS} FROM "import".webhook_endpoint
        WHERE tenant_id = $1 AND broker_id = $2 ORDER BY created_at, id`,
      [owner.tenantId, owner.brokerId],
    );
  }

  async find(owner: BrokerRef, id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db.query<WebhookEndpointRow[]>(
      `SELECT ${ENDPOINT_COLUMNS} FROM "import".webhook_endpoint WHERE tenant_id = $1 AND broker_id = $2 AND id = $3`,
      [owner.tenantId, owner.brokerId, id],
    );
    return row;
  }

  /** Removes the endpoint with its pending deliveries and its log; false when the owner has no such endpoint. */
  async remove(owner: BrokerRef, id: string): Promise<boolean> {
    const removed = await this.db.query<unknown[]>(
      `WITH removed AS (
         DELETE FROM "import".webhook_endpoint WHERE tenant_id = $1 AND broker_id = $2 AND id = $3 RETURNING id)
       SELECT id FROM removed`,
      [owner.tenantId, owner.brokerId, id],
    );
    return removed.length > 0;
  }

  /** The new secret signs from now on; the one it replaces signs beside it for PREVIOUS_SECRET_HOURS. */
  async rotateSecret(
    owner: BrokerRef,
    id: string,
    secretCiphertext: string,
  ): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db.query<WebhookEndpointRow[]>(
      `WITH rotated AS (
         UPDATE "import".webhook_endpoint
            SET previous_secret_ciphertext = secret_ciphertext,
                previous_secret_until = now() + make_interval(hours => ${PREVIOUS_SECRET_HOURS}),
                secret_ciphertext = $4
          WHERE tenant_id = $1 AND broker_id = $2 AND id = $3
          RETURNING *)
       SELECT ${ENDPOINT_COLUMNS} FROM rotated`,
      [owner.tenantId, owner.brokerId, id, secretCiphertext],
    );
    return row;
  }

  attempts(endpointId: string): Promise<WebhookAttemptRow[]> {
    return this.db.query<WebhookAttemptRow[]>(
      `SELECT delivery_id::text AS "deliveryId", event_type AS "eventType", attempted_at AS "attemptedAt",
              status_code AS "statusCode", error, duration_ms AS "durationMs"
         FROM "import".webhook_attempt WHERE endpoint_id = $1 ORDER BY id DESC LIMIT 100`,
      [endpointId],
    );
  }
}
