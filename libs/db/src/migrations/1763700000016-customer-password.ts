import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The password a customer sets on the page behind addKunde's password link (/service/{tenant}/passwort-setzen):
 * one argon2id hash (PHC string) per customer, replaced when the customer sets a new one through a new link. The
 * customer portal that signs customers in verifies against it.
 */
export class CustomerPassword1763700000016 implements MigrationInterface {
  name = 'CustomerPassword1763700000016';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE broker.customer_password (
        tenant_id bigint NOT NULL,
        customer_id bigint NOT NULL,
        password_hash text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
        set_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, customer_id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES broker.customer (tenant_id, id) ON DELETE CASCADE
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE broker.customer_password');
  }
}
