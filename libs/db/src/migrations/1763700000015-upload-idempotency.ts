import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `Idempotency-Key` of `POST /api/v1/import`: the process a caller's key created, so that the same key from the
 * same caller (tenant, the broker its token acts for, and its subject or client) within 24 hours answers that
 * process instead of importing the file again. Written in the transaction that records the process; a key older
 * than 24 hours counts as unused.
 */
export class UploadIdempotency1763700000015 implements MigrationInterface {
  name = 'UploadIdempotency1763700000015';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE "import".upload_idempotency (
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        requested_by text NOT NULL,
        idempotency_key text NOT NULL,
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, broker_id, requested_by, idempotency_key),
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id)
      )`);
    await db.query('CREATE INDEX upload_idempotency_process_idx ON "import".upload_idempotency (process_id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE "import".upload_idempotency');
  }
}
