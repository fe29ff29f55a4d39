import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TIMESTAMP_COLUMNS, touchTrigger } from './sql.js';

/** Tables in creation order; dropped in reverse. */
const TABLES = [
  'broker.tenant',
  'broker.broker',
  'broker.employee',
  'broker.api_client',
  'broker.company',
  'broker.customer',
  'broker.address',
  'broker.contact',
  'broker.contract',
  'broker.document',
  'broker.archive_entry',
  'broker.customer_note',
  'broker.customer_detail_definition',
  'broker.customer_detail_value',
];

/**
 * The broker domain model (the inventory). Every row carries tenant_id; references between rows
 * go through (tenant_id, id) so a row can never point into another tenant.
 */
export class InventoryModel1763700000001 implements MigrationInterface {
  name = 'InventoryModel1763700000001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE broker.tenant (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9][a-z0-9_-]{0,31}$'),
        name text NOT NULL,${TIMESTAMP_COLUMNS}
      )`);
    await db.query(`
      CREATE TABLE broker.broker (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL REFERENCES broker.tenant (id),
        broker_number text NOT NULL CHECK (broker_number <> ''),
        parent_id bigint,
        name text NOT NULL,
        name_suffix text,
        street text,
        postal_code text,
        city text,
        email text,
        phone text,
        mobile text,
        fax text,
        website text,
        imprint text,
        blocked boolean NOT NULL DEFAULT false,${TIMESTAMP_COLUMNS},
        UNIQUE (tenant_id, id),
        UNIQUE (tenant_id, broker_number),
        FOREIGN KEY (tenant_id, parent_id) REFERENCES broker.broker (tenant_id, id),
        CHECK (parent_id <> id)
      )`);
    await db.query('CREATE INDEX broker_parent_idx ON broker.broker (tenant_id, parent_id)');
    await db.query(`
      CREATE TABLE broker.employee (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        employee_code text NOT NULL CHECK (employee_code ~ '^[A-Za-z0-9_-]{1,32}$'),
        first_name text,
        last_name text NOT NULL,
        email text,
        blocked boolean NOT NULL DEFAULT false,${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id),
        UNIQUE (tenant_id, broker_id, employee_code)
      )`);
    await db.query(`
      CREATE TABLE broker.api_client (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        api_id text NOT NULL CHECK (api_id <> ''),
        api_key_ciphertext text NOT NULL,
        blocked boolean NOT NULL DEFAULT false,${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id),
        UNIQUE (tenant_id, api_id)
      )`);
    await db.query(`
      CREATE TABLE broker.company (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL REFERENCES broker.tenant (id),
        vu_number text NOT NULL CHECK (vu_number <> ''),
        name text NOT NULL,${TIMESTAMP_COLUMNS},
        UNIQUE (tenant_id, id),
        UNIQUE (tenant_id, vu_number)
      )`);
    await db.query(`
      CREATE TABLE broker.customer (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        user_name text,
        salutation text,
        per_du boolean NOT NULL DEFAULT false,
        deceased boolean NOT NULL DEFAULT false,
        relationship_ended_on date,
        person_type text NOT NULL CHECK (person_type IN ('natuerlich', 'juristisch')),
        title text,
        first_name text,
        last_name text,
        birth_date date,
        occupation text,
        specialty text,
        company_name text,
        contact_person text,
        founding_date date,
        industry text,
        notify_user_name boolean NOT NULL DEFAULT false,
        notify_password_link boolean NOT NULL DEFAULT false,
        suppress_initial_info boolean NOT NULL DEFAULT false,
        mandate_archive_entry_id bigint,
        external_key text,${TIMESTAMP_COLUMNS},
        UNIQUE (tenant_id, id),
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id)
      )`);
    await db.query(
      'CREATE UNIQUE INDEX customer_user_name_key ON broker.customer (tenant_id, lower(user_name)) WHERE user_name IS NOT NULL',
    );
    await db.query(
      'CREATE UNIQUE INDEX customer_external_key ON broker.customer (tenant_id, broker_id, external_key) WHERE external_key IS NOT NULL',
    );
    await db.query('CREATE INDEX customer_broker_idx ON broker.customer (tenant_id, broker_id)');
    await db.query(`
      CREATE TABLE broker.address (
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        address_no integer NOT NULL CHECK (address_no >= 0),
        address_type text NOT NULL,
        addition text,
        street text,
        postal_code text,
        city text,
        country char(2) NOT NULL DEFAULT 'DE',${TIMESTAMP_COLUMNS},
        PRIMARY KEY (customer_id, address_no),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE,
        CONSTRAINT address_main_residence_is_zero
          CHECK ((address_no = 0) = (address_type = 'hauptwohnsitz'))
      )`);
    await db.query('CREATE INDEX address_postal_code_idx ON broker.address (tenant_id, postal_code)');
    await db.query(`
      CREATE TABLE broker.contact (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        context text NOT NULL,
        contact_type text NOT NULL,
        value text NOT NULL,
        is_standard boolean NOT NULL DEFAULT false,${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE
      )`);
    await db.query('CREATE INDEX contact_customer_idx ON broker.contact (customer_id)');
    await db.query(
      'CREATE UNIQUE INDEX contact_one_standard_per_type ON broker.contact (customer_id, contact_type) WHERE is_standard',
    );
    await db.query('CREATE INDEX contact_value_idx ON broker.contact (tenant_id, lower(value))');
    await db.query(`
      CREATE TABLE broker.contract (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        company_id bigint NOT NULL,
        line_of_business text NOT NULL,
        policy_number text NOT NULL CHECK (policy_number <> ''),
        status text NOT NULL,
        start_date date,
        end_date date,
        main_due_date date,
        payment_mode text,
        net_premium_cents bigint,
        gross_premium_cents bigint,
        currency char(3) NOT NULL DEFAULT 'EUR',${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, company_id) REFERENCES broker.company (tenant_id, id),
        UNIQUE (tenant_id, company_id, policy_number)
      )`);
    await db.query('CREATE INDEX contract_customer_idx ON broker.contract (customer_id)');
    await db.query('CREATE INDEX contract_broker_idx ON broker.contract (tenant_id, broker_id, company_id)');
    await db.query(`
      CREATE TABLE broker.document (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        title text NOT NULL,
        file_name text NOT NULL,
        mime_type text NOT NULL,
        size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
        sha256 char(64) NOT NULL,
        storage_key text NOT NULL,${TIMESTAMP_COLUMNS},
        UNIQUE (tenant_id, id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE
      )`);
    await db.query('CREATE INDEX document_customer_idx ON broker.document (customer_id)');
    await db.query(`
      CREATE TABLE broker.archive_entry (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        entry_type text NOT NULL,
        title text NOT NULL,
        entry_date timestamptz NOT NULL DEFAULT now(),
        document_id bigint,${TIMESTAMP_COLUMNS},
        UNIQUE (tenant_id, id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, document_id) REFERENCES broker.document (tenant_id, id)
      )`);
    await db.query('CREATE INDEX archive_entry_customer_idx ON broker.archive_entry (customer_id)');
    await db.query(`
      ALTER TABLE broker.customer ADD CONSTRAINT customer_mandate_fkey
        FOREIGN KEY (tenant_id, mandate_archive_entry_id) REFERENCES broker.archive_entry (tenant_id, id)
        DEFERRABLE INITIALLY DEFERRED`);
    await db.query(`
      CREATE TABLE broker.customer_note (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        note_type text NOT NULL,
        text text NOT NULL,${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE
      )`);
    await db.query('CREATE INDEX customer_note_customer_idx ON broker.customer_note (customer_id)');
    await db.query(`
      CREATE TABLE broker.customer_detail_definition (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        detail_key text NOT NULL CHECK (detail_key ~ '^[A-Za-z0-9_-]{1,64}$'),
        name text NOT NULL,
        value_type text NOT NULL CHECK (value_type IN ('zahl', 'datum', 'auswahl', 'text', 'betrag_2', 'boolean')),
        options jsonb,${TIMESTAMP_COLUMNS},
        UNIQUE (tenant_id, id),
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id),
        UNIQUE (tenant_id, broker_id, detail_key),
        CHECK ((value_type = 'auswahl') = (options IS NOT NULL))
      )`);
    await db.query(`
      CREATE TABLE broker.customer_detail_value (
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        definition_id bigint NOT NULL,
        value jsonb NOT NULL,${TIMESTAMP_COLUMNS},
        PRIMARY KEY (customer_id, definition_id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, definition_id) REFERENCES broker.customer_detail_definition (tenant_id, id)
      )`);
    await this.indexForeignKeys(db);
    for (const table of TABLES) await db.query(touchTrigger(table));
  }

  /** Foreign keys not already led by another index, so deleting a referenced row does not scan. */
  private async indexForeignKeys(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX api_client_broker_idx ON broker.api_client (tenant_id, broker_id)');
    await db.query(
      'CREATE INDEX archive_entry_document_idx ON broker.archive_entry (tenant_id, document_id)',
    );
    await db.query(
      'CREATE INDEX customer_mandate_idx ON broker.customer (tenant_id, mandate_archive_entry_id) WHERE mandate_archive_entry_id IS NOT NULL',
    );
    await db.query(
      'CREATE INDEX customer_detail_value_definition_idx ON broker.customer_detail_value (tenant_id, definition_id)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE broker.customer DROP CONSTRAINT customer_mandate_fkey');
    for (const table of [...TABLES].reverse()) await db.query(`DROP TABLE ${table}`);
  }
}
