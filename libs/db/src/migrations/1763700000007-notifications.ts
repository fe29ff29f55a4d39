import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TIMESTAMP_COLUMNS, touchTrigger } from './sql.js';

/**
 * Area C messages to customers: an outbox written in the same transaction as the change that causes a message,
 * delivered afterwards (and retried until delivered), and the single-use link tokens those messages carry.
 */
export class Notifications1763700000007 implements MigrationInterface {
  name = 'Notifications1763700000007';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE broker.outbox_message (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        kind text NOT NULL,
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        recipient text NOT NULL,
        subject text,
        body text NOT NULL,
        -- a link with a token in the body is a placeholder; the link itself is kept encrypted until delivery
        link_ciphertext text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        sent_at timestamptz,${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE
      )`);
    await db.query(
      `CREATE INDEX outbox_message_pending_idx ON broker.outbox_message (updated_at) WHERE status = 'pending'`,
    );
    await db.query('CREATE INDEX outbox_message_customer_idx ON broker.outbox_message (customer_id)');
    await db.query(touchTrigger('broker.outbox_message'));
    await db.query(`
      CREATE TABLE broker.customer_link_token (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('passwort', 'maklervollmacht')),
        -- sha256 of the token; the token itself exists only in the delivered message
        token_sha256 char(64) NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE
      )`);
    await db.query(
      'CREATE INDEX customer_link_token_customer_idx ON broker.customer_link_token (customer_id)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE broker.customer_link_token');
    await db.query('DROP TABLE broker.outbox_message');
  }
}
