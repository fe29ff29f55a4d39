import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { allMigrations, createDataSource, migrateUp } from '@broker/db';
import { testDatabaseServerUrl } from './test-env.js';

const TEST_DATABASE_PREFIX = 'bp_test_';

function databaseUrl(name: string): string {
  const url = new URL(testDatabaseServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The template's name changes whenever a migration changes, so a stale template is never cloned. */
export function templateDatabaseName(): string {
  const hash = createHash('sha256');
  // A class's source text includes its up and down methods.
  for (const migration of allMigrations) hash.update(migration.toString());
  return `bp_template_${hash.digest('hex').slice(0, 16)}`;
}

/** Creates the migrated template database once; later runs find it and return at once. */
export async function ensureTemplateDatabase(): Promise<string> {
  const template = templateDatabaseName();
  await withAdminClient(async (admin) => {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount) return;
    const building = `${template}_build_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    await admin.query(`CREATE DATABASE ${building}`);
    const dataSource = createDataSource({ url: databaseUrl(building), applicationName: 'test-template' });
    await dataSource.initialize();
    try {
      await migrateUp(dataSource);
    } finally {
      await dataSource.destroy();
    }
    // The rename makes the finished template appear atomically for concurrent runs.
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`).catch(async (error: unknown) => {
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      const raced = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (!raced.rowCount) throw error;
    });
  });
  return template;
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A freshly migrated database of its own for one test file (a clone of the template: about 50 ms). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplateDatabase();
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
  await withAdminClient((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdminClient((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(),
  };
}

/** An empty database (no migrations), for tests of the migrations themselves. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
  await withAdminClient((admin) => admin.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdminClient((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(),
  };
}
