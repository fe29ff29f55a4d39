import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An import process remembers the trace of its upload (a W3C `traceparent`, when the upload was traced and
 * sampled), so that its webhook deliveries and event streams, which run in traces of their own, can link to it.
 */
export class ImportTraceParent1763700000021 implements MigrationInterface {
  name = 'ImportTraceParent1763700000021';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE "import".import_process ADD COLUMN trace_parent text');
    // NOT VALID: the existing rows are all NULL, and checking them would hold the table's exclusive lock for a scan.
    await db.query(`
      ALTER TABLE "import".import_process
        ADD CONSTRAINT import_process_trace_parent_check
          CHECK (trace_parent ~ '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$') NOT VALID`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE "import".import_process DROP COLUMN trace_parent');
  }
}
