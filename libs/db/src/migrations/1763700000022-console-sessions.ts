import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator console's logins (beyond the spec), in a schema of the administration service's own:
 * - `console_login`: a login under way at the OpenID provider (state, nonce, PKCE verifier), used once, for minutes;
 * - `console_session`: a logged-in person's session. Only a hash of the browser's cookie is stored, and the provider's
 *   tokens are encrypted (`tokens_ciphertext`); who it is (`role`, `tenant_code`) is read from the verified access
 *   token, as the API reads it.
 */
export class ConsoleSessions1763700000022 implements MigrationInterface {
  name = 'ConsoleSessions1763700000022';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE SCHEMA admin');
    await db.query(`
      CREATE TABLE admin.console_login (
        id_hash bytea PRIMARY KEY,
        state text NOT NULL,
        nonce text NOT NULL,
        code_verifier text NOT NULL,
        return_to text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX console_login_expires_idx ON admin.console_login (expires_at)');
    await db.query(`
      CREATE TABLE admin.console_session (
        id_hash bytea PRIMARY KEY,
        subject text NOT NULL,
        display_name text,
        role text NOT NULL CONSTRAINT console_session_role_check CHECK (role IN ('operator', 'tenant-admin')),
        tenant_code text,
        tokens_ciphertext text NOT NULL,
        access_expires_at timestamptz NOT NULL,
        idle_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT console_session_tenant_check CHECK ((role = 'tenant-admin') = (tenant_code IS NOT NULL))
      )`);
    await db.query('CREATE INDEX console_session_expires_idx ON admin.console_session (expires_at)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP SCHEMA admin CASCADE');
  }
}
