import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An operator cancels a stuck import through the administration (beyond the spec): the request is recorded on the
 * process (`cancel_requested_at`, `cancel_requested_by`, the operator's subject); the pipeline's worker then ends the
 * process as failed, as it ends any failed one, and a stage still running no longer moves it on;
 * - operators list a tenant's processes newest first, across its brokers (`import_process_tenant_idx`).
 */
export class ImportOperatorCancel1763700000023 implements MigrationInterface {
  name = 'ImportOperatorCancel1763700000023';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE "import".import_process
        ADD COLUMN cancel_requested_at timestamptz,
        ADD COLUMN cancel_requested_by text,
        ADD CONSTRAINT import_process_cancel_request_check
          CHECK ((cancel_requested_at IS NULL) = (cancel_requested_by IS NULL)) NOT VALID`);
    await db.query(
      'CREATE INDEX import_process_tenant_idx ON "import".import_process (tenant_id, started_at DESC, id)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX "import".import_process_tenant_idx');
    await db.query(`
      ALTER TABLE "import".import_process
        DROP CONSTRAINT import_process_cancel_request_check,
        DROP COLUMN cancel_requested_by,
        DROP COLUMN cancel_requested_at`);
  }
}
