import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { parseConfig } from '@broker/config';
import { Queue } from 'bullmq';
import { ImportProcessOperations, type WriteContext } from '@broker/administration';
import {
  IMPORT_PIPELINE_QUEUE,
  IMPORT_PIPELINE_STATUSES,
  STAGE_JOB_NAME,
  STAGE_JOB_OPTIONS,
  type StageJob,
  stageJobId,
} from '@broker/contracts';
import { createDataSource } from '@broker/db';
import { createHttpApp, redisConnection } from '@broker/platform';
import {
  createImportTestEnvironment,
  createTestDatabase,
  createTestRedisNamespace,
  importPipelineTestEnv,
  type ImportTestEnvironment,
  type TestDatabase,
  type TestRedisNamespace,
  waitFor,
  writeGdvPortfolio,
} from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { AppModule } from '../src/app.module.js';
import { importEnvShape } from '../src/config.js';
import { assertWorkerBuilt, spawnWorker, uploadGdv } from './worker-process.js';

const CONTRACTS = 20_000;
const CONTRACTS_PER_CUSTOMER = 2;
const THROUGH_PROCESSED = IMPORT_PIPELINE_STATUSES.slice(
  0,
  IMPORT_PIPELINE_STATUSES.indexOf('processed') + 1,
);

/**
 * The worker as it runs in production (its own process, built entry point), killed with SIGKILL in the middle
 * of the pipeline and started again.
 */
describe('import pipeline recovery (worker process killed mid-pipeline)', () => {
  let database: TestDatabase;
  let environment: ImportTestEnvironment;
  let redis: TestRedisNamespace;
  let api: INestApplication;
  let db: Client;
  let env: Record<string, string>;
  let fixtureDir: string;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    assertWorkerBuilt();
    database = await createTestDatabase();
    await insertBrokerFixture(database.url);
    environment = await createImportTestEnvironment();
    redis = createTestRedisNamespace();
    env = importPipelineTestEnv(environment, database.url, redis);
    api = await createHttpApp(AppModule.forRoot(parseConfig(importEnvShape, env)));
    await api.init();
    db = new Client({ connectionString: database.url });
    await db.connect();
    fixtureDir = mkdtempSync(path.join(os.tmpdir(), 'bp-recovery-'));
  });

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await db?.end();
    await api?.close();
    await redis?.clear();
    await database?.drop();
    await environment?.cleanup();
    if (fixtureDir) rmSync(fixtureDir, { recursive: true, force: true });
  });

  async function startWorker(): Promise<ChildProcess> {
    worker = await spawnWorker(env);
    return worker;
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async function status(id: string): Promise<string> {
    const result = await db.query<{ status: string }>(
      'SELECT status FROM "import".import_process WHERE id = $1',
      [id],
    );
    return result.rows[0].status;
  }

  const statusIn = (id: string, wanted: string[], timeoutMs = 60_000) =>
    waitFor(
      async () => {
        const current = await status(id);
        return wanted.includes(current) ? current : undefined;
      },
      timeoutMs,
      () => `import ${id} never reached ${wanted.join(' or ')}`,
      20,
    );

  const upload = (file: string) => uploadGdv(api, environment, file);

  it('ends in processed with every customer and contract once, after two kills', async () => {
    const file = path.join(fixtureDir, 'portfolio.gdv');
    await writeGdvPortfolio(createWriteStream(file), {
      contracts: CONTRACTS,
      contractsPerCustomer: CONTRACTS_PER_CUSTOMER,
      policyPrefix: 'REC',
    });
    const id = await upload(file);

    // First kill while the file is decoded into staging, second while customers are merged and written.
    let child = await startWorker();
    const decoding = await statusIn(id, ['received', 'imported']);
    await kill(child);
    child = await startWorker();
    const merging = await statusIn(id, [
      'customersParsed',
      'customersPrepared',
      'customersAssigned',
      'customersFinalized',
    ]);
    await kill(child);

    await startWorker();
    await statusIn(id, ['processed']);
    expect([decoding, merging]).not.toContain('processed');

    const history = await db.query<{ status: string }>(
      'SELECT status FROM "import".import_status_change WHERE process_id = $1 ORDER BY id',
      [id],
    );
    expect(history.rows.map((row) => row.status)).toEqual(THROUGH_PROCESSED);
    const inventory = await db.query<{
      customers: number;
      keys: number;
      contracts: number;
      policies: number;
    }>(
      `SELECT (SELECT count(*)::int FROM broker.customer WHERE external_key LIKE 'kunde:9999:%') AS customers,
              (SELECT count(DISTINCT external_key)::int FROM broker.customer WHERE external_key LIKE 'kunde:9999:%') AS keys,
              (SELECT count(*)::int FROM broker.contract WHERE policy_number LIKE 'REC%') AS contracts,
              (SELECT count(DISTINCT policy_number)::int FROM broker.contract WHERE policy_number LIKE 'REC%') AS policies`,
    );
    expect(inventory.rows[0]).toEqual({
      customers: CONTRACTS / CONTRACTS_PER_CUSTOMER,
      keys: CONTRACTS / CONTRACTS_PER_CUSTOMER,
      contracts: CONTRACTS,
      policies: CONTRACTS,
    });
    const process = await db.query<{ amount_of_records: number }>(
      'SELECT amount_of_records FROM "import".import_process WHERE id = $1',
      [id],
    );
    expect(process.rows[0]?.amount_of_records).toBe(CONTRACTS);
  }, 120_000);

  it('commits the contracts only after their customers became searchable: a kill in between loses nothing', async () => {
    const contracts = 2_000;
    const file = path.join(fixtureDir, 'beside.gdv');
    await writeGdvPortfolio(createWriteStream(file), {
      contracts,
      contractsPerCustomer: CONTRACTS_PER_CUSTOMER,
      policyPrefix: 'BES',
    });
    // A move of brokers in progress (each tenant's hierarchy lock, held exclusively) holds up every refresh of
    // search documents, so the one beside the contracts' write waits while the write itself can finish.
    const mover = new Client({ connectionString: database.url });
    await mover.connect();
    try {
      await mover.query('BEGIN');
      await mover.query('SELECT pg_advisory_xact_lock(broker.search_hierarchy_lock(id)) FROM broker.tenant');
      if (worker && worker.exitCode === null && worker.signalCode === null) await kill(worker);
      const id = await upload(file);
      const child = await startWorker();
      await statusIn(id, ['contractsPrepared']);
      await waitFor(
        async () => {
          const waiting = await db.query(
            `SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
              WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted`,
          );
          return waiting.rows.length > 0 || undefined;
        },
        30_000,
        () => 'the search refresh never waited for the move',
      );
      await kill(child);
      expect(await status(id)).toBe('contractsPrepared');
      const written = await db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM broker.contract WHERE policy_number LIKE 'BES%'",
      );
      expect(written.rows[0]?.count).toBe(0);
      await mover.query('COMMIT');

      await startWorker();
      await statusIn(id, ['processed']);
      const counts = await db.query<{ created: number; updated: number; unsearchable: number }>(
        `SELECT (p.stage_counts->>'contractsCreated')::int AS created,
                (p.stage_counts->>'contractsUpdated')::int AS updated,
                (SELECT count(*)::int FROM broker.contract k JOIN broker.customer c ON c.id = k.customer_id
                  WHERE k.policy_number LIKE 'BES%'
                    AND NOT EXISTS (SELECT 1 FROM broker.customer_search s WHERE s.customer_id = c.id)) AS unsearchable
           FROM "import".import_process p WHERE p.id = $1`,
        [id],
      );
      expect(counts.rows[0]).toEqual({ created: contracts, updated: 0, unsearchable: 0 });
    } finally {
      await mover.end();
    }
  }, 120_000);

  /** The administration's import operations on this database, putting stages on this pipeline's queue. */
  async function withOperations<T>(work: (operations: ImportProcessOperations) => Promise<T>): Promise<T> {
    const dataSource = createDataSource({ url: database.url, applicationName: 'operator-test', poolSize: 2 });
    await dataSource.initialize();
    const queue = new Queue<StageJob>(IMPORT_PIPELINE_QUEUE, {
      connection: redisConnection(redis.url),
      prefix: redis.prefix,
    });
    const pipeline = {
      enqueue: async (job: StageJob) => {
        await queue.add(STAGE_JOB_NAME, job, { ...STAGE_JOB_OPTIONS, jobId: stageJobId(job) });
      },
    };
    try {
      return await work(new ImportProcessOperations(dataSource, pipeline));
    } finally {
      await queue.close();
      await dataSource.destroy();
    }
  }

  const OPERATOR: WriteContext = { actor: { kind: 'operator', subject: 'olga', client: 'broker-console' } };

  it('ends a cancelled process as failed when the worker takes it up; a retried one runs to processed', async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) await kill(worker);
    const contracts = 2_000;
    const file = path.join(fixtureDir, 'operator.gdv');
    await writeGdvPortfolio(createWriteStream(file), {
      contracts,
      contractsPerCustomer: 2,
      policyPrefix: 'OPS',
    });
    const cancelled = await upload(file);
    const retried = await upload(file);
    await withOperations((operations) => operations.cancel(OPERATOR, 'demo', cancelled));

    // The retried one fails after its work rows were written, as the pipeline ends a failed process.
    let child = await startWorker();
    await statusIn(retried, ['customersParsed', 'customersPrepared', 'customersAssigned']);
    await kill(child);
    await db.query(
      `UPDATE "import".import_process SET status = 'failed', failure_reason = 'technical faults', ended_at = now()
        WHERE id = $1`,
      [retried],
    );
    await db.query(`INSERT INTO "import".import_status_change (process_id, status) VALUES ($1, 'failed')`, [
      retried,
    ]);
    for (const table of ['staged_customer', 'staged_contract', 'merged_customer', 'merged_contract'])
      await db.query(`DELETE FROM "import".${table} WHERE process_id = $1`, [retried]);
    expect(await status(cancelled)).toBe('failed');

    const detail = await withOperations((operations) => operations.retry(OPERATOR, 'demo', retried));
    expect(detail).toMatchObject({ status: 'received', failure_reason: null });
    child = await startWorker();
    await statusIn(retried, ['processed']);
    const failure = await db.query<{ failure_reason: string }>(
      'SELECT failure_reason FROM "import".import_process WHERE id = $1',
      [cancelled],
    );
    expect(failure.rows[0].failure_reason).toBe('Cancelled by the operator olga');
    const counts = await db.query<{ contracts: number; policies: number }>(
      `SELECT count(*)::int AS contracts, count(DISTINCT policy_number)::int AS policies
         FROM broker.contract WHERE policy_number LIKE 'OPS%'`,
    );
    expect(counts.rows[0]).toEqual({ contracts, policies: contracts });
    const amount = await db.query<{ amount_of_records: number }>(
      'SELECT amount_of_records FROM "import".import_process WHERE id = $1',
      [retried],
    );
    expect(amount.rows[0].amount_of_records).toBe(contracts);
  }, 120_000);
});
