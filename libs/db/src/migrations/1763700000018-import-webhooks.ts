import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks of import processes (an extension), per Standard Webhooks 1.0:
 * - `webhook_endpoint`: a broker's registered URL, the event types it wants, its signing secret encrypted
 *   (AES-256-GCM with IMPORT_WEBHOOK_ENCRYPTION_KEY) and, for 24 hours after a rotation, the previous one; since
 *   when its deliveries keep failing, and when it was disabled for that.
 * - `webhook_delivery`: the outbox, written in the transaction of the status change it tells of; one row per
 *   endpoint and event, delivered at least once and in order per endpoint and process.
 * - `webhook_attempt`: the delivery log an owner reads (the last 100 attempts per endpoint are kept).
 */
export class ImportWebhooks1763700000018 implements MigrationInterface {
  name = 'ImportWebhooks1763700000018';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE "import".webhook_endpoint (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        created_by text NOT NULL,
        url text NOT NULL,
        event_types text[] NOT NULL CHECK (cardinality(event_types) > 0),
        secret_ciphertext text NOT NULL,
        previous_secret_ciphertext text,
        previous_secret_until timestamptz,
        failing_since timestamptz,
        disabled_at timestamptz,
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id)
      )`);
    await db.query('CREATE INDEX webhook_endpoint_broker_idx ON "import".webhook_endpoint (tenant_id, broker_id)');
    await db.query(`
      CREATE TABLE "import".webhook_delivery (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES "import".webhook_endpoint (id) ON DELETE CASCADE,
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'abandoned')),
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz
      )`);
    await db.query(
      `CREATE INDEX webhook_delivery_pending_idx ON "import".webhook_delivery (endpoint_id, process_id, id)
        WHERE state = 'pending'`,
    );
    await db.query(`
      CREATE TABLE "import".webhook_attempt (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES "import".webhook_endpoint (id) ON DELETE CASCADE,
        delivery_id bigint NOT NULL,
        event_type text NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        status_code integer,
        error text,
        duration_ms integer NOT NULL
      )`);
    await db.query('CREATE INDEX webhook_attempt_endpoint_idx ON "import".webhook_attempt (endpoint_id, id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE "import".webhook_attempt');
    await db.query('DROP TABLE "import".webhook_delivery');
    await db.query('DROP TABLE "import".webhook_endpoint');
  }
}
