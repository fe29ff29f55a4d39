import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TIMESTAMP_COLUMNS, touchTrigger } from './sql.js';

/** A snapshot of the spec's statuses: a migration never imports code that may change after it ran. */
const STATUSES = [
  'uploaded',
  'transmitted',
  'received',
  'imported',
  'validated',
  'customersParsed',
  'customersPrepared',
  'customersAssigned',
  'customersFinalized',
  'customersDone',
  'contractsPrepare',
  'contractsPrepared',
  'contractsFinalized',
  'processed',
  'archived',
  'failed',
];

/**
 * Area A: import processes. PostgreSQL holds the truth (status, times, counts, failure reason, history);
 * Redis/BullMQ only carries the work.
 */
export class ImportProcesses1763700000003 implements MigrationInterface {
  name = 'ImportProcesses1763700000003';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE "import".import_process (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        requested_by text NOT NULL,
        file_type text NOT NULL CHECK (file_type IN ('GDV', 'CSV')),
        status text NOT NULL CONSTRAINT import_process_status_check
          CHECK (status IN (${STATUSES.map((status) => `'${status}'`).join(', ')})),
        file_name text NOT NULL,
        file_size bigint NOT NULL CHECK (file_size > 0),
        file_sha256 char(64) NOT NULL,
        storage_key text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz,
        amount_of_records integer CHECK (amount_of_records >= 0),
        failure_reason text,
        stage_counts jsonb NOT NULL DEFAULT '{}',
        archived_at timestamptz,${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id),
        CONSTRAINT import_process_end_only_when_done
          CHECK (ended_at IS NULL OR status IN ('processed', 'archived', 'failed'))
      )`);
    await db.query(
      'CREATE INDEX import_process_broker_idx ON "import".import_process (tenant_id, broker_id, started_at DESC)',
    );
    await db.query(
      `CREATE INDEX import_process_open_idx ON "import".import_process (updated_at)
        WHERE status NOT IN ('processed', 'archived', 'failed')`,
    );
    await db.query(`
      CREATE TABLE "import".import_process_company (
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        tenant_id bigint NOT NULL,
        company_id bigint NOT NULL,
        PRIMARY KEY (process_id, company_id),
        FOREIGN KEY (tenant_id, company_id) REFERENCES broker.company (tenant_id, id)
      )`);
    await db.query(`
      CREATE TABLE "import".import_status_change (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        status text NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      'CREATE INDEX import_status_change_process_idx ON "import".import_status_change (process_id, id)',
    );
    await db.query(`
      CREATE TABLE "import".import_issue (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        stage text NOT NULL,
        severity text NOT NULL CHECK (severity IN ('warning', 'rejected')),
        line integer,
        message text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query('CREATE INDEX import_issue_process_idx ON "import".import_issue (process_id, id)');
    await db.query(touchTrigger('"import".import_process'));
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE "import".import_issue');
    await db.query('DROP TABLE "import".import_status_change');
    await db.query('DROP TABLE "import".import_process_company');
    await db.query('DROP TABLE "import".import_process');
  }
}
