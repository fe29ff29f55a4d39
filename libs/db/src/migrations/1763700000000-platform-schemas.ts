import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PlatformSchemas1763700000000 implements MigrationInterface {
  name = 'PlatformSchemas1763700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE SCHEMA "import"');
    await db.query('CREATE SCHEMA calc');
    await db.query('CREATE SCHEMA broker');
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await db.query(`
      CREATE FUNCTION public.touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- An update that changes nothing (an idempotent upsert) keeps the old time, so Last-Modified stays true.
        IF NEW IS DISTINCT FROM OLD THEN
          NEW.updated_at := now();
        END IF;
        RETURN NEW;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION public.touch_updated_at()');
    await db.query('DROP SCHEMA broker');
    await db.query('DROP SCHEMA calc');
    await db.query('DROP SCHEMA "import"');
  }
}
