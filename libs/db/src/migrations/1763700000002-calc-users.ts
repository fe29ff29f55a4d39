import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TIMESTAMP_COLUMNS, touchTrigger } from './sql.js';

/** Users of the calculation service (area B); passwords as argon2id hashes. */
export class CalcUsers1763700000002 implements MigrationInterface {
  name = 'CalcUsers1763700000002';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE calc.user_account (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_code text NOT NULL,
        username text NOT NULL CHECK (username <> ''),
        password_hash text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
        disabled boolean NOT NULL DEFAULT false,${TIMESTAMP_COLUMNS}
      )`);
    await db.query('CREATE UNIQUE INDEX user_account_username_key ON calc.user_account (lower(username))');
    await db.query(touchTrigger('calc.user_account'));
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE calc.user_account');
  }
}
