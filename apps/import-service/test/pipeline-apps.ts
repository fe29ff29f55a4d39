import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import { importHttpSettings } from '../src/http-settings.js';
import {
  createImportTestEnvironment,
  createTestDatabase,
  createTestRedisNamespace,
  importPipelineTestEnv,
  type ImportTestEnvironment,
  type TestDatabase,
  type TestRedisNamespace,
} from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { AppModule } from '../src/app.module.js';
import { importEnvShape, importWorkerEnvShape } from '../src/config.js';
import { WorkerModule } from '../src/worker.module.js';

/** The import API and a worker in this process, on a test database with the broker fixture and a Redis namespace. */
export interface PipelineApps {
  database: TestDatabase;
  environment: ImportTestEnvironment;
  redis: TestRedisNamespace;
  api: INestApplication;
  worker: INestApplication;
  /** A connection of the test's own to the database. */
  db: Client;
  /** The variables both were started with (for a worker process of a test's own). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** `env` adds to or replaces the variables of both (importPipelineTestEnv's short sweeper and idle times). */
export async function startPipelineApps(env: Record<string, string> = {}): Promise<PipelineApps> {
  const database = await createTestDatabase();
  await insertBrokerFixture(database.url);
  const environment = await createImportTestEnvironment();
  const redis = createTestRedisNamespace();
  const variables = { ...importPipelineTestEnv(environment, database.url, redis), ...env };
  const config = parseConfig(importEnvShape, variables);
  // With its document, as the service runs: the e2e checks compare every exchange with it.
  const api = await createHttpApp(AppModule.forRoot(config), importHttpSettings(config));
  await api.init();
  const worker = await createHttpApp(WorkerModule.forRoot(parseConfig(importWorkerEnvShape, variables)));
  await worker.init();
  const db = new Client({ connectionString: database.url });
  await db.connect();
  return {
    database,
    environment,
    redis,
    api,
    worker,
    db,
    env: variables,
    async close() {
      await db.end();
      await worker.close();
      await api.close();
      await redis.clear();
      await database.drop();
      await environment.cleanup();
    },
  };
}
