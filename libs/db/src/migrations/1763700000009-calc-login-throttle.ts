import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Area B: failed logins per user name and client address within a window, so repeated failures can be refused
 * (429) across every instance of the service.
 */
export class CalcLoginThrottle1763700000009 implements MigrationInterface {
  name = 'CalcLoginThrottle1763700000009';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE calc.login_throttle (
        throttle_key text PRIMARY KEY,
        failures integer NOT NULL,
        window_started_at timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE calc.login_throttle');
  }
}
