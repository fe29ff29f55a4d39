/**
 * The migration step of a deployment (compose's `migrate` service, the Kubernetes Job), in every app image:
 * `node node_modules/@broker/db/dist/migrate-main.js` with DATABASE_URL set. Concurrent runs wait for each other.
 */
import 'reflect-metadata';
import { baseEnvShape, loadConfig } from '@broker/config';
import { migrateDatabase } from './migrate-database.js';

migrateDatabase(loadConfig({ DATABASE_URL: baseEnvShape.DATABASE_URL }).DATABASE_URL, console.log).catch(
  (error: unknown) => {
    process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
