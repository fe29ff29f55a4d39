import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { findFreePort, findWorkspaceRoot, stopChild } from '@broker/local-services';
import {
  createImportTestEnvironment,
  createTestDatabase,
  createTestRedisNamespace,
  type ImportTestEnvironment,
  insertBrokerFixture,
  type TestDatabase,
  writeGdvPortfolio,
} from '@broker/testing';
import { cpuTimeMeter } from './cpu-time.js';

const root = findWorkspaceRoot(__dirname);
const API_ENTRY = path.join(root, 'apps/import-service/dist/main.js');
const WORKER_ENTRY = path.join(root, 'apps/import-service/dist/worker.js');
const DEFAULT_SIZES = [10_000, 100_000];
const RUN_TIMEOUT_MS = 30 * 60_000;
/** The inventory tables an import writes, in an order COPY can load them. */
const INVENTORY_TABLES = ['customer', 'address', 'contact', 'contract'] as const;

interface RunResult {
  contracts: number;
  fileMiB: number;
  uploadSeconds: number;
  endToEndSeconds: number;
  contractsPerSecond: number;
  copySeconds: number;
  copyContractsPerSecond: number;
  searchIndexSeconds: number;
  apiPeakRssMiB: number | null;
  workerPeakRssMiB: number | null;
  stageSeconds: Record<string, number>;
}

/** Peak resident set size of a process in MiB (Linux: VmHWM), or null elsewhere. */
function peakRssMiB(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kib ? Math.round(Number(kib) / 1024) : null;
  } catch {
    return null;
  }
}

async function startService(entry: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [entry], { env: { ...env, PORT: String(port) }, stdio: 'inherit' });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
    if (ready?.ok) return Object.assign(child, { port });
    await delay(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not become ready`);
}

const portOf = (child: ChildProcess) => (child as ChildProcess & { port: number }).port;

async function waitForEnd(db: Client, processId: string): Promise<string> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ status: string; failure_reason: string | null }>(
      'SELECT status, failure_reason FROM "import".import_process WHERE id = $1',
      [processId],
    );
    const status = rows[0]?.status;
    if (status === 'processed') return status;
    if (status === 'failed') throw new Error(`import failed: ${rows[0]?.failure_reason}`);
    await delay(50);
  }
  throw new Error('import did not finish in time');
}

async function stageSeconds(db: Client, processId: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; seconds: number }>(
    `SELECT status, extract(epoch FROM changed_at - lag(changed_at) OVER (ORDER BY id))::float8 AS seconds
       FROM "import".import_status_change WHERE process_id = $1 ORDER BY id`,
    [processId],
  );
  return Object.fromEntries(rows.slice(1).map((row) => [row.status, Math.round(row.seconds * 100) / 100]));
}

/**
 * The baseline: the rows the import wrote (customers, addresses, contacts, contracts), exported and loaded
 * with plain COPY into tables of the same shape and indexes. Returns the seconds the loads took.
 */
async function copyBaseline(db: Client): Promise<number> {
  await db.query('DROP SCHEMA IF EXISTS bench_copy CASCADE');
  await db.query('CREATE SCHEMA bench_copy');
  let seconds = 0;
  for (const table of INVENTORY_TABLES) {
    await db.query(
      `CREATE TABLE bench_copy.${table} (LIKE broker.${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)`,
    );
    const chunks: Buffer[] = [];
    const exported = db.query(copyTo(`COPY broker.${table} TO STDOUT`));
    for await (const chunk of exported) chunks.push(chunk as Buffer);
    const started = process.hrtime.bigint();
    await pipeline(Readable.from(chunks), db.query(copyFrom(`COPY bench_copy.${table} FROM STDIN`)));
    seconds += Number(process.hrtime.bigint() - started) / 1e9;
  }
  await db.query('DROP SCHEMA bench_copy CASCADE');
  return seconds;
}

/**
 * What keeping the imported customers searchable costs at the least: their search documents and index entries
 * written by the schema's bulk path, `broker.customer_search_rebuild()` (the tables emptied, the entries inserted
 * without their indexes, the indexes built afterwards, statistics refreshed), which no import into a live table
 * can use (it locks and rewrites the whole index). The bench database holds the imported customers and the few of
 * the fixture. The import's triggers write the entries incrementally instead, once per statement that changes
 * customers, addresses or contacts. Run in a transaction that is rolled back, so the database stays as the import
 * left it. The COPY baseline loads tables without triggers, so this cost is not in it.
 */
async function searchIndexFloor(db: Client): Promise<number> {
  await db.query('BEGIN');
  try {
    const started = process.hrtime.bigint();
    await db.query('SELECT broker.customer_search_rebuild()');
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await db.query('ROLLBACK');
  }
}

async function upload(apiPort: number, file: string, token: string): Promise<string> {
  const form = new FormData();
  form.append('companies[0]', '9999');
  form.append('file', await openAsBlob(file), 'bestand.gdv');
  const response = await fetch(`http://127.0.0.1:${apiPort}/api/v1/import`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await response.json()) as { process_id?: string; message?: string };
  if (!response.ok || !body.process_id) throw new Error(`upload refused: ${response.status} ${body.message}`);
  return body.process_id;
}

/** One size: a fresh database, fresh API and worker processes (so their peak RSS belongs to this run). */
async function run(
  contracts: number,
  environment: ImportTestEnvironment,
  workDir: string,
): Promise<RunResult> {
  const file = path.join(workDir, `portfolio-${contracts}.gdv`);
  await writeGdvPortfolio(createWriteStream(file), { contracts });
  const database: TestDatabase = await createTestDatabase();
  const redis = createTestRedisNamespace();
  const env = {
    ...process.env,
    ...environment.env,
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    IMPORT_QUEUE_PREFIX: redis.prefix,
    IMPORT_MAX_UPLOAD_BYTES: String(2 * 1024 ** 3),
    LOG_LEVEL: 'warn',
  };
  await insertBrokerFixture(database.url);
  const api = await startService(API_ENTRY, env);
  const worker = await startService(WORKER_ENTRY, env);
  const db = new Client({ connectionString: database.url });
  await db.connect();
  try {
    const started = process.hrtime.bigint();
    const processId = await upload(portOf(api), file, await environment.authServer.token());
    const uploaded = process.hrtime.bigint();
    await waitForEnd(db, processId);
    const endToEndSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const result = {
      apiPeakRssMiB: peakRssMiB(api.pid),
      workerPeakRssMiB: peakRssMiB(worker.pid),
      stageSeconds: await stageSeconds(db, processId),
    };
    const copySeconds = await copyBaseline(db);
    const searchIndexSeconds = await searchIndexFloor(db);
    return {
      contracts,
      fileMiB: Math.round((statSync(file).size / 1024 ** 2) * 10) / 10,
      uploadSeconds: Number(uploaded - started) / 1e9,
      endToEndSeconds,
      contractsPerSecond: Math.round(contracts / endToEndSeconds),
      copySeconds,
      copyContractsPerSecond: Math.round(contracts / copySeconds),
      searchIndexSeconds,
      ...result,
    };
  } finally {
    await db.end();
    await stopChild(worker, 'SIGTERM', 'SIGKILL', 10_000);
    await stopChild(api, 'SIGTERM', 'SIGKILL', 10_000);
    await redis.clear();
    await database.drop();
    rmSync(file, { force: true });
  }
}

const seconds = (value: number) => value.toFixed(2);

function report(results: RunResult[]): string {
  const lines = [
    '| contracts | file MiB | upload s | upload → processed s | contracts/s | COPY s | COPY contracts/s | share of COPY rate | search index s | API peak RSS MiB | worker peak RSS MiB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (result) =>
        `| ${result.contracts} | ${result.fileMiB} | ${seconds(result.uploadSeconds)} | ${seconds(result.endToEndSeconds)} | ` +
        `${result.contractsPerSecond} | ${seconds(result.copySeconds)} | ${result.copyContractsPerSecond} | ` +
        `${Math.round((100 * result.contractsPerSecond) / result.copyContractsPerSecond)} % | ${seconds(result.searchIndexSeconds)} | ` +
        `${result.apiPeakRssMiB ?? 'n/a'} | ${result.workerPeakRssMiB ?? 'n/a'} |`,
    ),
    '',
    ...results.map((result) => `- ${result.contracts}: ${floorLine(result)}`),
    '',
    'Seconds per status (time from the previous status to this one):',
    '',
    ...results.map((result) => `- ${result.contracts}: ${JSON.stringify(result.stageSeconds)}`),
  ];
  return lines.join('\n');
}

/**
 * Half the COPY rate leaves twice the COPY time from the start of the upload to processed. The status pipeline
 * runs its work one step after another (the file is received once uploaded, customers are written before
 * contracts), so the upload, writing the rows at COPY's own speed and the bulk build of their search index (all
 * measured above) add up to a floor for an import whose customers are searchable when it is processed.
 */
function floorLine(result: RunResult): string {
  const budget = 2 * result.copySeconds;
  const floor = result.uploadSeconds + result.copySeconds + result.searchIndexSeconds;
  return (
    `half the COPY rate allows ${seconds(budget)} s end to end; the upload (${seconds(result.uploadSeconds)} s), ` +
    `writing the rows by COPY (${seconds(result.copySeconds)} s) and the bulk build of their search index ` +
    `(${seconds(result.searchIndexSeconds)} s) take ${seconds(floor)} s (${Math.round((100 * floor) / budget)} % of it), ` +
    'without decoding the file or any step of the pipeline'
  );
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter(Number.isInteger);
  const environment = await createImportTestEnvironment();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'bp-bench-'));
  try {
    const results: RunResult[] = [];
    const cpu = cpuTimeMeter();
    for (const contracts of sizes.length > 0 ? sizes : DEFAULT_SIZES) {
      process.stderr.write(`bench: importing ${contracts} contracts ...\n`);
      results.push(await run(contracts, environment, workDir));
    }
    process.stdout.write(`${report(results)}\n\nDuring the runs: ${cpu.read()}.\n`);
  } finally {
    await environment.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
