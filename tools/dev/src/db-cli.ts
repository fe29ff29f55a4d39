import 'reflect-metadata';
import { ApiKeyCipher } from '@broker/auth';
import { baseEnvShape, env, loadConfig } from '@broker/config';
import { createDataSource, migrateDatabase, migrateDown } from '@broker/db';
import type { DataSource } from 'typeorm';
import { seedDemoData } from './seed/seed-demo-data.js';

const USAGE = 'usage: db-cli migrate | revert [steps|all] | seed';

const { DATABASE_URL } = loadConfig({ DATABASE_URL: baseEnvShape.DATABASE_URL });

async function withDataSource(work: (dataSource: DataSource) => Promise<void>): Promise<void> {
  const dataSource = createDataSource({ url: DATABASE_URL, applicationName: 'db-cli' });
  await dataSource.initialize();
  try {
    await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

function revertSteps(argument: string | undefined): number {
  if (argument === undefined) return 1;
  if (argument === 'all') return Number.POSITIVE_INFINITY;
  const steps = Number(argument);
  if (!Number.isInteger(steps) || steps < 1)
    throw new Error(`revert takes a positive number or "all"; ${USAGE}`);
  return steps;
}

async function run(command: string | undefined, argument: string | undefined): Promise<void> {
  switch (command) {
    case 'migrate':
      return migrateDatabase(DATABASE_URL, console.log);
    case 'revert':
      return withDataSource(async (dataSource) => {
        const reverted = await migrateDown(dataSource, revertSteps(argument));
        console.log(`Reverted ${reverted} migration(s)`);
      });
    case 'seed': {
      const { API_KEY_ENCRYPTION_KEY } = loadConfig({ API_KEY_ENCRYPTION_KEY: env.encryptionKey() });
      return withDataSource(async (dataSource) => {
        await seedDemoData(dataSource, new ApiKeyCipher(API_KEY_ENCRYPTION_KEY));
        console.log('Demo data seeded (tenant "demo")');
      });
    }
    default:
      throw new Error(USAGE);
  }
}

run(process.argv[2], process.argv[3]).catch((error: unknown) => {
  process.stderr.write(`db-cli: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
