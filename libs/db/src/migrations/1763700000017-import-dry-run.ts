import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dry runs of large files (`POST /api/v1/import?dry_run=true` above the synchronous size) are processes of their
 * own, read through the report and the event stream like imports, but never listed by `GET /api/v1/list` and never
 * writing the inventory. `down` removes them first: without the flag they would look like imports that wrote
 * nothing.
 */
export class ImportDryRun1763700000017 implements MigrationInterface {
  name = 'ImportDryRun1763700000017';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE "import".import_process ADD COLUMN dry_run boolean NOT NULL DEFAULT false');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DELETE FROM "import".import_process WHERE dry_run');
    await db.query('ALTER TABLE "import".import_process DROP COLUMN dry_run');
  }
}
