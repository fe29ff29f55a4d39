import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { parseConfig } from '@broker/config';
import { IMPORT_PIPELINE_STATUSES, type ImportPipelineStatus } from '@broker/contracts';
import { createDataSource, migrateUp } from '@broker/db';
import { type RestartableService, startPrivatePostgres } from '@broker/local-services';
import { createHttpApp } from '@broker/platform';
import {
  createImportTestEnvironment,
  createTestRedisNamespace,
  importPipelineTestEnv,
  type ImportTestEnvironment,
  type TestRedisNamespace,
  waitFor,
  writeGdvPortfolio,
} from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { AppModule } from '../src/app.module.js';
import { importEnvShape } from '../src/config.js';
import { assertWorkerBuilt, spawnWorker, uploadGdv } from './worker-process.js';

const CONTRACTS = 100_000;
const CONTRACTS_PER_CUSTOMER = 2;
/** How long PostgreSQL is stopped. */
const OUTAGE_MS = 30_000;
/** The stage whose work the outage interrupts. */
const OUTAGE_STAGE: ImportPipelineStatus = 'customersParsed';
/** The statuses whose stage runs SQL: every one from the upload to the last before processed. */
const SQL_STAGES = IMPORT_PIPELINE_STATUSES.slice(0, IMPORT_PIPELINE_STATUSES.indexOf('processed'));
/** The stages long enough at this size that a statement of theirs is always seen running. */
const LONG_STAGES = IMPORT_PIPELINE_STATUSES.slice(
  IMPORT_PIPELINE_STATUSES.indexOf('received'),
  IMPORT_PIPELINE_STATUSES.indexOf('contractsFinalized'),
);

/**
 * The worker as it runs in production (its own process, built entry point) on a PostgreSQL of this test's own,
 * which is stopped for 30 s in the middle of a stage, while the statements of every stage get their connection
 * killed once (pg_terminate_backend: admin_shutdown). The import waits it all out and ends processed, exactly.
 */
describe('import pipeline during a database outage (PostgreSQL stopped, connections killed)', () => {
  let stateDir: string;
  let postgres: RestartableService;
  let environment: ImportTestEnvironment;
  let redis: TestRedisNamespace;
  let api: INestApplication;
  let env: Record<string, string>;
  let worker: ChildProcess | undefined;
  let workerOutput = '';

  beforeAll(async () => {
    assertWorkerBuilt();
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'bp-outage-'));
    chmodSync(stateDir, 0o755); // PostgreSQL started by root runs as the postgres user, which must reach its data
    postgres = await startPrivatePostgres(path.join(stateDir, 'postgres'));
    const dataSource = createDataSource({ url: postgres.url, applicationName: 'outage-test-migrate' });
    await dataSource.initialize();
    await migrateUp(dataSource);
    await dataSource.destroy();
    await insertBrokerFixture(postgres.url);
    environment = await createImportTestEnvironment();
    redis = createTestRedisNamespace();
    env = {
      ...importPipelineTestEnv(environment, postgres.url, redis),
      // Short waits keep the test short; the outage budget is the default (10 minutes).
      IMPORT_RETRY_MAX_DELAY_MS: '2000',
      IMPORT_SWEEP_INTERVAL_MS: '5000',
      IMPORT_STAGE_IDLE_MS: '60000',
      IMPORT_STAGE_LOCK_MS: '30000',
    };
    api = await createHttpApp(AppModule.forRoot(parseConfig(importEnvShape, env)));
    await api.init();
  }, 120_000);

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await api?.close();
    await redis?.clear();
    await environment?.cleanup();
    await postgres?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  async function connect(): Promise<Client> {
    const client = new Client({ connectionString: postgres.url, application_name: 'outage-test' });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  interface Observation {
    status: string;
    /** A statement of the worker running now, if any. */
    pid: number | null;
  }

  async function observe(db: Client, id: string): Promise<Observation> {
    const result = await db.query<Observation>(
      `SELECT p.status,
              (SELECT a.pid FROM pg_stat_activity a
                WHERE a.application_name = 'import-worker' AND a.state = 'active' AND a.pid <> pg_backend_pid()
                ORDER BY a.query_start LIMIT 1) AS pid
         FROM "import".import_process p WHERE p.id = $1`,
      [id],
    );
    return result.rows[0];
  }

  /** Stops PostgreSQL for OUTAGE_MS, then starts it again. */
  async function outage(): Promise<void> {
    await postgres.stop();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await postgres.start();
  }

  it('waits out a 30 s stop and a killed statement in every stage, and ends processed with exact counts', async () => {
    const file = path.join(stateDir, 'portfolio.gdv');
    await writeGdvPortfolio(createWriteStream(file), {
      contracts: CONTRACTS,
      contractsPerCustomer: CONTRACTS_PER_CUSTOMER,
      policyPrefix: 'OUT',
    });
    const id = await uploadGdv(api, environment, file);
    worker = await spawnWorker({ ...env, LOG_LEVEL: 'info' }, (text) => (workerOutput += text), {
      untilLive: true,
    });

    const killedIn = new Set<string>();
    let stoppedIn: string | undefined;
    let db = await connect();
    const deadline = Date.now() + 240_000;
    for (;;) {
      const { status, pid } = await observe(db, id);
      if (status === 'processed' || status === 'failed') break;
      if (Date.now() > deadline) throw new Error(`import ${id} stuck in ${status}\n${workerOutput}`);
      if (pid !== null && status === OUTAGE_STAGE && stoppedIn === undefined && killedIn.has(status)) {
        stoppedIn = status;
        await db.end();
        await outage();
        db = await connect();
      } else if (
        pid !== null &&
        SQL_STAGES.includes(status as ImportPipelineStatus) &&
        !killedIn.has(status)
      ) {
        await db.query('SELECT pg_terminate_backend($1)', [pid]);
        killedIn.add(status);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    try {
      expect(stoppedIn).toBe(OUTAGE_STAGE);
      for (const stage of LONG_STAGES)
        expect({ stage, killed: killedIn.has(stage) }).toEqual({ stage, killed: true });
      const processed = await waitFor(
        async () => ((await observe(db, id)).status === 'processed' ? true : undefined),
        1_000,
        () => workerOutput,
      );
      expect(processed).toBe(true);
      const inventory = await db.query<{
        customers: number;
        contracts: number;
        policies: number;
        records: number;
      }>(
        `SELECT (SELECT count(DISTINCT external_key)::int FROM broker.customer
                  WHERE external_key LIKE 'kunde:9999:%') AS customers,
                (SELECT count(*)::int FROM broker.contract WHERE policy_number LIKE 'OUT%') AS contracts,
                (SELECT count(DISTINCT policy_number)::int FROM broker.contract WHERE policy_number LIKE 'OUT%') AS policies,
                (SELECT amount_of_records FROM "import".import_process WHERE id = $1) AS records`,
        [id],
      );
      expect(inventory.rows[0]).toEqual({
        customers: CONTRACTS / CONTRACTS_PER_CUSTOMER,
        contracts: CONTRACTS,
        policies: CONTRACTS,
        records: CONTRACTS,
      });
      const searchable = await db.query<{ unsearchable: number }>(
        `SELECT count(*)::int AS unsearchable FROM broker.customer c
          WHERE c.external_key LIKE 'kunde:9999:%'
            AND NOT EXISTS (SELECT 1 FROM broker.customer_search s WHERE s.customer_id = c.id)`,
      );
      expect(searchable.rows[0].unsearchable).toBe(0);
      expect(workerOutput).not.toMatch(/Could not mark import/);
      expect(workerOutput).not.toMatch(/failed in stage/);
    } finally {
      await db.end();
    }
  }, 300_000);
});
