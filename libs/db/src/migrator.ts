import type { DataSource } from 'typeorm';

/** Any fixed number: the advisory lock that keeps two migration runs from interleaving. */
const MIGRATION_LOCK_ID = 72_431_001;

async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    return await work();
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    await runner.release();
  }
}

/** Applies every pending migration; a second run finds none and changes nothing. Returns the names applied. */
export async function migrateUp(dataSource: DataSource): Promise<string[]> {
  return withMigrationLock(dataSource, async () => {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  });
}

/** Reverts the most recent `steps` migrations (all of them with `Infinity`). Returns how many were reverted. */
export async function migrateDown(dataSource: DataSource, steps = 1): Promise<number> {
  return withMigrationLock(dataSource, async () => {
    let reverted = 0;
    while (reverted < steps && (await appliedMigrationCount(dataSource)) > 0) {
      await dataSource.undoLastMigration({ transaction: 'each' });
      reverted += 1;
    }
    return reverted;
  });
}

export async function appliedMigrationCount(dataSource: DataSource): Promise<number> {
  const [row] = await dataSource.query<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM information_schema.tables
      WHERE table_schema = 'public' AND table_name = 'schema_migrations'`,
  );
  if (!row || row.count === 0) return 0;
  const [applied] = await dataSource.query<{ count: number }[]>(
    'SELECT count(*)::int AS count FROM schema_migrations',
  );
  return applied?.count ?? 0;
}
