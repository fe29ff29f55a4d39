import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type ConnectionOptions, Queue, Worker } from 'bullmq';
import { inSpan, queueTelemetry } from '@broker/telemetry';
import { IMPORT_WEBHOOK_QUEUE } from '@broker/contracts';
import { DataSource } from 'typeorm';
import { WebhookSecretCipher } from './webhook-secrets.js';
import { sendWebhook } from './webhook-sender.js';
import type { WebhookUrlPolicy } from './webhook-url.js';

export const WEBHOOK_DELIVERY_SETTINGS = Symbol('WEBHOOK_DELIVERY_SETTINGS');

export interface WebhookDeliverySettings {
  connection: ConnectionOptions;
  queuePrefix: string;
  policy: WebhookUrlPolicy;
  /** First retry after this; each next one after twice as long, at most `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** An endpoint whose deliveries fail this long is disabled. */
  disableAfterMs: number;
  /** How often the outbox is looked at for deliveries to queue. */
  dispatchIntervalMs: number;
  /** A killed worker's delivery in hand is taken up again after this (the stage jobs' IMPORT_STAGE_LOCK_MS). */
  lockMs: number;
}

/** Attempts of one delivery: enough to keep retrying (at most hourly) until its endpoint is disabled. */
const MAX_ATTEMPTS = 200;
/** Attempts kept per endpoint for its log. */
const LOG_LENGTH = 100;

interface DeliveryJob {
  deliveryId: string;
}

interface DueDelivery {
  id: string;
  endpointId: string;
  eventType: string;
  payload: unknown;
  state: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  disabled: boolean;
  earlierPending: boolean;
  failingSince: Date | null;
  /** The upload's trace, which the delivery's span links to. */
  processTraceParent: string | null;
}

/**
 * Delivers the webhook outbox (extension). A dispatcher looks at the outbox every `dispatchIntervalMs` and queues
 * the oldest pending delivery of each endpoint and process as a BullMQ job (keyed by the delivery, so it is queued
 * once), so that deliveries of one process reach an endpoint in order. A job sends it; a refusal, a non-2xx answer,
 * a timeout or a refused address is retried with exponential backoff (`retryBaseMs` doubling up to `retryMaxMs`).
 * Once delivered, the next delivery of that process is queued at once. Deliveries are at least once: a worker
 * killed after the receiver accepted but before the outbox row was marked sends it again. An endpoint failing for
 * `disableAfterMs` (3 days) is disabled and its pending deliveries abandoned.
 */
@Injectable()
export class WebhookDeliveries implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveries.name);
  private queue: Queue<DeliveryJob> | undefined;
  private worker: Worker<DeliveryJob> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dispatching = false;

  constructor(
    private readonly db: DataSource,
    private readonly cipher: WebhookSecretCipher,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, queuePrefix: prefix } = this.settings;
    const telemetry = queueTelemetry();
    this.queue = new Queue<DeliveryJob>(IMPORT_WEBHOOK_QUEUE, { connection, prefix, ...telemetry });
    this.worker = new Worker<DeliveryJob>(IMPORT_WEBHOOK_QUEUE, (job) => this.deliver(job.data.deliveryId), {
      connection,
      prefix,
      ...telemetry,
      concurrency: 8,
      lockDuration: this.settings.lockMs,
      stalledInterval: this.settings.lockMs,
      settings: {
        backoffStrategy: (attemptsMade) =>
          Math.min(this.settings.retryMaxMs, this.settings.retryBaseMs * 2 ** Math.max(0, attemptsMade - 1)),
      },
    });
    this.worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= MAX_ATTEMPTS) void this.abandon(job.data.deliveryId, error.message);
    });
    this.timer = setInterval(() => void this.dispatch(), this.settings.dispatchIntervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.worker?.close();
    await this.queue?.close();
  }

  /** Queues the oldest pending delivery of each endpoint and process. */
  async dispatch(): Promise<void> {
    if (this.dispatching || !this.queue) return;
    this.dispatching = true;
    try {
      const heads = await this.db.query<{ id: string }[]>(
        `SELECT d.id::text FROM "import".webhook_delivery d
          WHERE d.state = 'pending'
            AND NOT EXISTS (SELECT 1 FROM "import".webhook_delivery o
                             WHERE o.state = 'pending' AND o.endpoint_id = d.endpoint_id
                               AND o.process_id = d.process_id AND o.id < d.id)
          ORDER BY d.id LIMIT 500`,
      );
      for (const { id } of heads) await this.enqueue(id);
    } catch (error) {
      this.logger.warn({ err: error }, 'Webhook dispatch failed; the next pass tries again');
    } finally {
      this.dispatching = false;
    }
  }

  private async enqueue(deliveryId: string): Promise<void> {
    await this.queue?.add(
      'deliver',
      { deliveryId },
      {
        jobId: `delivery-${deliveryId}`,
        attempts: MAX_ATTEMPTS,
        backoff: { type: 'custom' },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** One attempt; throws to be retried. */
  private async deliver(deliveryId: string): Promise<void> {
    const delivery = await this.find(deliveryId);
    // Gone, done, disabled, or not its turn (an older delivery of the process is pending): nothing to send now.
    if (!delivery || delivery.state !== 'pending' || delivery.disabled || delivery.earlierPending) return;
    const secrets = [delivery.secret, delivery.previousSecret].filter((secret) => secret !== null);
    const attempt = await inSpan(
      `webhook ${delivery.eventType}`,
      { 'webhook.delivery_id': delivery.id, 'webhook.endpoint_id': delivery.endpointId },
      () =>
        sendWebhook(
          new URL(delivery.url),
          {
            id: `msg_${delivery.id}`,
            body: JSON.stringify(delivery.payload),
            secrets: secrets.map((secret) => this.cipher.decrypt(secret)),
          },
          this.settings.policy,
        ),
      delivery.processTraceParent,
    );
    await this.record(delivery, attempt);
    if (attempt.ok) {
      await this.next(delivery);
      return;
    }
    if (await this.disableIfFailingTooLong(delivery)) return;
    throw new Error(attempt.error ?? `The endpoint answered ${attempt.statusCode}`);
  }

  private async find(deliveryId: string): Promise<DueDelivery | undefined> {
    const [row] = await this.db.query<DueDelivery[]>(
      `SELECT d.id::text, d.endpoint_id AS "endpointId", d.event_type AS "eventType", d.payload, d.state, e.url,
              e.secret_ciphertext AS secret,
              CASE WHEN e.previous_secret_until > now() THEN e.previous_secret_ciphertext END AS "previousSecret",
              e.disabled_at IS NOT NULL AS disabled, e.failing_since AS "failingSince",
              p.trace_parent AS "processTraceParent",
              EXISTS (SELECT 1 FROM "import".webhook_delivery o
                       WHERE o.state = 'pending' AND o.endpoint_id = d.endpoint_id AND o.process_id = d.process_id
                         AND o.id < d.id) AS "earlierPending"
         FROM "import".webhook_delivery d JOIN "import".webhook_endpoint e ON e.id = d.endpoint_id
         LEFT JOIN "import".import_process p ON p.id = d.process_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    return row;
  }

  /** The attempt in the endpoint's log (its last LOG_LENGTH kept), the delivery's state, the endpoint's health. */
  private async record(
    delivery: DueDelivery,
    attempt: { ok: boolean; statusCode: number | null; error: string | null; durationMs: number },
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO "import".webhook_attempt (endpoint_id, delivery_id, event_type, status_code, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          delivery.endpointId,
          delivery.id,
          delivery.eventType,
          attempt.statusCode,
          attempt.error,
          attempt.durationMs,
        ],
      );
      await tx.query(
        `DELETE FROM "import".webhook_attempt WHERE endpoint_id = $1 AND id <= (
           SELECT id FROM "import".webhook_attempt WHERE endpoint_id = $1 ORDER BY id DESC OFFSET ${LOG_LENGTH} LIMIT 1)`,
        [delivery.endpointId],
      );
      await tx.query(
        `UPDATE "import".webhook_delivery
            SET attempts = attempts + 1,
                state = CASE WHEN $2 THEN 'delivered' ELSE state END,
                delivered_at = CASE WHEN $2 THEN now() END
          WHERE id = $1`,
        [delivery.id, attempt.ok],
      );
      await tx.query(
        `UPDATE "import".webhook_endpoint
            SET failing_since = CASE WHEN $2 THEN NULL ELSE coalesce(failing_since, now()) END
          WHERE id = $1`,
        [delivery.endpointId, attempt.ok],
      );
    });
  }

  /** The next delivery of the same endpoint and process, queued at once rather than at the next dispatch. */
  private async next(delivery: DueDelivery): Promise<void> {
    const [next] = await this.db.query<{ id: string }[]>(
      `SELECT n.id::text FROM "import".webhook_delivery n
         JOIN "import".webhook_delivery d ON d.id = $1
        WHERE n.state = 'pending' AND n.endpoint_id = d.endpoint_id AND n.process_id = d.process_id
        ORDER BY n.id LIMIT 1`,
      [delivery.id],
    );
    if (next) await this.enqueue(next.id);
  }

  private async disableIfFailingTooLong(delivery: DueDelivery): Promise<boolean> {
    const disabled = await this.db.query<{ id: string }[]>(
      `WITH disabled AS (
         UPDATE "import".webhook_endpoint
            SET disabled_at = now(),
                disabled_reason = 'Deliveries failed for ' || $2 || ' hours without a success; register it again'
          WHERE id = $1 AND disabled_at IS NULL
            AND failing_since <= now() - make_interval(secs => $3::float8 / 1000)
          RETURNING id)
       SELECT id::text FROM disabled`,
      [
        delivery.endpointId,
        Math.round(this.settings.disableAfterMs / 3_600_000),
        this.settings.disableAfterMs,
      ],
    );
    if (disabled.length === 0) return false;
    await this.db.query(
      `UPDATE "import".webhook_delivery SET state = 'abandoned' WHERE endpoint_id = $1 AND state = 'pending'`,
      [delivery.endpointId],
    );
    this.logger.warn(`Webhook endpoint ${delivery.endpointId} disabled: its deliveries failed too long`);
    return true;
  }

  /** Retries spent (only before its endpoint was disabled when the retry window is configured short). */
  private async abandon(deliveryId: string, reason: string): Promise<void> {
    await this.db
      .query(`UPDATE "import".webhook_delivery SET state = 'abandoned' WHERE id = $1 AND state = 'pending'`, [
        deliveryId,
      ])
      .catch((error: unknown) =>
        this.logger.error({ err: error }, `Could not abandon webhook delivery ${deliveryId}`),
      );
    this.logger.warn(`Webhook delivery ${deliveryId} abandoned after ${MAX_ATTEMPTS} attempts: ${reason}`);
  }
}
