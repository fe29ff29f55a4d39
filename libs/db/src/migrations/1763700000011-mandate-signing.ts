import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TIMESTAMP_COLUMNS, touchTrigger } from './sql.js';

/**
 * Area C signing page: a tenant's own broker mandate text (without a row the service's default applies), the
 * bytes of documents the service stores itself (the signed mandate PDF, written in the same transaction as its
 * document and archive entry), and an audit trail of what customers did through their links.
 */
export class MandateSigning1763700000011 implements MigrationInterface {
  name = 'MandateSigning1763700000011';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE broker.mandate_template (
        tenant_id bigint PRIMARY KEY REFERENCES broker.tenant (id) ON DELETE CASCADE,
        title text NOT NULL CHECK (btrim(title) <> ''),
        -- paragraphs separated by blank lines; {{kunde}} (the customer's name) and {{makler}} (the broker's name
        -- and address) are filled in
        body text NOT NULL CHECK (btrim(body) <> ''),${TIMESTAMP_COLUMNS}
      )`);
    await db.query(touchTrigger('broker.mandate_template'));
    await db.query(`
      CREATE TABLE broker.document_content (
        document_id bigint PRIMARY KEY,
        tenant_id bigint NOT NULL,
        content bytea NOT NULL,
        FOREIGN KEY (tenant_id, document_id) REFERENCES broker.document (tenant_id, id) ON DELETE CASCADE
      )`);
    await db.query(`
      CREATE TABLE broker.audit_event (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        action text NOT NULL CHECK (action <> ''),
        -- who acted, e.g. 'kunde' for the customer through a link
        actor text NOT NULL CHECK (actor <> ''),
        client_address text,
        user_agent text,
        details jsonb NOT NULL DEFAULT '{}',
        occurred_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE
      )`);
    await db.query('CREATE INDEX audit_event_customer_idx ON broker.audit_event (customer_id, occurred_at)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE broker.audit_event');
    await db.query('DROP TABLE broker.document_content');
    await db.query('DROP TABLE broker.mandate_template');
  }
}
