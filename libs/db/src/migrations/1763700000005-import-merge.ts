import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Area A merge tables: the customers and contracts of one import as they will be written to the inventory,
 * one row per customer key and per contract, in typed columns. The customer and contract stages fill,
 * normalise, match and link them set-based; the processed stage empties them.
 */
export class ImportMerge1763700000005 implements MigrationInterface {
  name = 'ImportMerge1763700000005';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE "import".merged_customer (
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        customer_key text NOT NULL,
        -- the first line of the customer in the file, and how many records of the file describe it
        line integer NOT NULL,
        occurrences integer NOT NULL,
        person_type text NOT NULL,
        salutation text,
        title text,
        first_name text,
        last_name text,
        company_name text,
        birth_date date,
        street text,
        postal_code text,
        city text,
        country text,
        contacts jsonb NOT NULL DEFAULT '[]',
        rejected_reason text,
        -- set by customersAssigned (an existing customer) or customersFinalized (a new one)
        customer_id bigint,
        matched_existing boolean NOT NULL DEFAULT false,
        PRIMARY KEY (process_id, customer_key)
      )`);
    await db.query(`
      CREATE TABLE "import".merged_contract (
        process_id uuid NOT NULL REFERENCES "import".import_process (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        line integer NOT NULL,
        customer_key text NOT NULL,
        vu_number text NOT NULL,
        policy_number text NOT NULL,
        line_of_business text NOT NULL,
        status text NOT NULL,
        start_date date,
        end_date date,
        main_due_date date,
        payment_mode text,
        net_premium_cents bigint,
        gross_premium_cents bigint,
        currency text NOT NULL,
        rejected_reason text,
        -- set by contractsPrepared
        customer_id bigint,
        company_id bigint,
        existing_contract_id bigint,
        PRIMARY KEY (process_id, seq)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE "import".merged_contract');
    await db.query('DROP TABLE "import".merged_customer');
  }
}
