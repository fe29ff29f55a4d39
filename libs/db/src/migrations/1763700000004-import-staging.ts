import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Area A staging: what the `imported` stage decoded from a file, one row per customer and contract occurrence,
 * before the later stages merge, match and write them into the inventory.
 */
export class ImportStaging1763700000004 implements MigrationInterface {
  name = 'ImportStaging1763700000004';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE "import".staged_customer (
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        customer_key text NOT NULL,
        line integer NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (process_id, seq)
      )`);
    await db.query(
      'CREATE INDEX staged_customer_key_idx ON "import".staged_customer (process_id, customer_key)',
    );
    await db.query(`
      CREATE TABLE "import".staged_contract (
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        customer_key text NOT NULL,
        vu_number text NOT NULL,
        policy_number text NOT NULL,
        line integer NOT NULL,
        data jsonb NOT NULL,
        -- set by the validated stage: such a contract is reported and not written
        rejected_reason text,
        PRIMARY KEY (process_id, seq)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE "import".staged_contract');
    await db.query('DROP TABLE "import".staged_customer');
  }
}
