import { createDataSource } from './data-source.js';
import { appliedMigrationCount, migrateUp } from './migrator.js';

/** Applies every pending migration to the database at `url` and says what it did. */
export async function migrateDatabase(url: string, say: (line: string) => void): Promise<void> {
  const dataSource = createDataSource({ url, applicationName: 'migrate' });
  await dataSource.initialize();
  try {
    const applied = await migrateUp(dataSource);
    say(applied.length ? `Applied ${applied.join(', ')}` : 'No pending migrations');
    say(`${await appliedMigrationCount(dataSource)} migrations applied in total`);
  } finally {
    await dataSource.destroy();
  }
}
