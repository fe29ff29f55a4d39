import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The administration service (beyond the spec):
 * - an API client's key is rotated with an overlap: the key it replaced stays valid until
 *   `previous_key_valid_until`; `key_created_at` tells when the current key was made;
 * - an employee has one `name`, as the administration API and the master-data files give it;
 * - the audit trail holds the operators' and administrators' writes beside the customers' own (signing, password):
 *   who (`actor_kind`, `actor` = the token's subject, `actor_client`), what (`action`, the operation's id), on what
 *   (`target`) and the changes (`details`, never a secret); `customer_id` only for a customer's own events;
 * - `broker.hierarchy_change` remembers when a tenant's broker tree last changed shape (a broker moved), so a list of
 *   a broker's sub-brokers can tell when it changed although a broker moved out of it (a trigger keeps it).
 */
export class Administration1763700000020 implements MigrationInterface {
  name = 'Administration1763700000020';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE broker.api_client
        ADD COLUMN previous_key_ciphertext text,
        ADD COLUMN previous_key_valid_until timestamptz,
        ADD COLUMN key_created_at timestamptz,
        ADD CONSTRAINT api_client_previous_key_check
          CHECK ((previous_key_ciphertext IS NULL) = (previous_key_valid_until IS NULL))`);
    await db.query('UPDATE broker.api_client SET key_created_at = created_at');
    await db.query(
      'ALTER TABLE broker.api_client ALTER COLUMN key_created_at SET NOT NULL, ALTER COLUMN key_created_at SET DEFAULT now()',
    );

    await db.query('ALTER TABLE broker.employee ADD COLUMN name text');
    // A blank last name (the old schema allowed it) takes the employee's code: a name may not be blank now.
    await db.query(`UPDATE broker.employee
                       SET name = coalesce(nullif(btrim(concat_ws(' ', first_name, last_name)), ''), employee_code)`);
    await db.query(`
      ALTER TABLE broker.employee
        ALTER COLUMN name SET NOT NULL,
        ADD CONSTRAINT employee_name_check CHECK (btrim(name) <> ''),
        DROP COLUMN first_name,
        DROP COLUMN last_name`);

    await db.query(`
      ALTER TABLE broker.audit_event
        ALTER COLUMN customer_id DROP NOT NULL,
        ADD COLUMN actor_kind text,
        ADD COLUMN actor_client text,
        ADD COLUMN target text,
        ADD CONSTRAINT audit_event_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES broker.tenant (id)`);
    await db.query(
      `UPDATE broker.audit_event SET actor_kind = 'customer', target = 'customers/' || customer_id`,
    );
    await db.query(`
      ALTER TABLE broker.audit_event
        ALTER COLUMN actor_kind SET NOT NULL,
        ALTER COLUMN target SET NOT NULL,
        ADD CONSTRAINT audit_event_actor_kind_check
          CHECK (actor_kind IN ('customer', 'operator', 'tenant-admin', 'api-client', 'system'))`);
    await db.query('CREATE INDEX audit_event_tenant_idx ON broker.audit_event (tenant_id, id)');

    await db.query(`
      CREATE TABLE broker.hierarchy_change (
        tenant_id bigint PRIMARY KEY REFERENCES broker.tenant (id),
        changed_at timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE FUNCTION broker.note_hierarchy_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO broker.hierarchy_change (tenant_id, changed_at)
        SELECT DISTINCT n.tenant_id, now() FROM moved_new n JOIN moved_old o ON o.id = n.id
         WHERE o.parent_id IS DISTINCT FROM n.parent_id
        ON CONFLICT (tenant_id) DO UPDATE SET changed_at = EXCLUDED.changed_at;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER broker_hierarchy_change AFTER UPDATE ON broker.broker
        REFERENCING OLD TABLE AS moved_old NEW TABLE AS moved_new
        FOR EACH STATEMENT EXECUTE FUNCTION broker.note_hierarchy_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER broker_hierarchy_change ON broker.broker');
    await db.query('DROP FUNCTION broker.note_hierarchy_change()');
    await db.query('DROP TABLE broker.hierarchy_change');

    // The administrators' events have no place in the customers' audit trail of before.
    await db.query('DELETE FROM broker.audit_event WHERE customer_id IS NULL');
    await db.query(`
      ALTER TABLE broker.audit_event
        DROP CONSTRAINT audit_event_tenant_id_fkey,
        DROP COLUMN actor_kind,
        DROP COLUMN actor_client,
        DROP COLUMN target,
        ALTER COLUMN customer_id SET NOT NULL`);
    await db.query('DROP INDEX IF EXISTS broker.audit_event_tenant_idx');

    await db.query('ALTER TABLE broker.employee ADD COLUMN first_name text, ADD COLUMN last_name text');
    await db.query('UPDATE broker.employee SET last_name = name');
    await db.query(`
      ALTER TABLE broker.employee
        ALTER COLUMN last_name SET NOT NULL,
        DROP CONSTRAINT employee_name_check,
        DROP COLUMN name`);

    await db.query(`
      ALTER TABLE broker.api_client
        DROP CONSTRAINT api_client_previous_key_check,
        DROP COLUMN previous_key_ciphertext,
        DROP COLUMN previous_key_valid_until,
        DROP COLUMN key_created_at`);
  }
}
