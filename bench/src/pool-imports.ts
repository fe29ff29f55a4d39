import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { createImportTestEnvironment, createTestRedisNamespace, writeGdvPortfolio } from '@broker/testing';
import type { BrokerBench } from './broker-fixture.js';
import { peakRssMiB, stageSeconds, startImportServices, uploadGdv, waitForProcessed } from './import-run.js';
import type { KindResult } from './search-client.js';

/**
 * Several imports of different brokers at once on the pool's tenant (issue 20, Build point 5), while the pool's
 * callers search: each import must end `processed` with exactly its file's customers and contracts, and the
 * searches are measured before and while the imports run.
 */

export interface ImportPlan {
  imports: number;
  contracts: number;
}

/** The GDV generator's default: two contracts per customer. */
const CONTRACTS_PER_CUSTOMER = 2;

interface ImportOutcome {
  broker: string;
  seconds: number;
  customers: number;
  contracts: number;
  stages: Record<string, number>;
}

export interface ConcurrentImports {
  plan: ImportPlan;
  outcomes: ImportOutcome[];
  wallSeconds: number;
  workerPeakRssMiB: number | null;
  before: KindResult[];
  /** Each round of searches started while an import was still running. */
  during: SearchRound[];
}

/** A round of searches while importing: the imports' statuses when it began, and its results per kind. */
interface SearchRound {
  statuses: string[];
  results: KindResult[];
}

/** Each process's status, in the order of the given ids (those uploaded so far). */
async function importStatuses(db: Pool, processIds: string[]): Promise<string[]> {
  const { rows } = await db.query<{ status: string }>(
    `SELECT p.status FROM unnest($1::uuid[]) WITH ORDINALITY AS i(id, n)
       JOIN "import".import_process p ON p.id = i.id ORDER BY i.n`,
    [processIds],
  );
  return rows.map((row) => row.status);
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** New top brokers without customers, one per import: numbers I1, I2, ... */
async function insertImportBrokers(bench: BrokerBench, count: number): Promise<string[]> {
  const numbers = Array.from({ length: count }, (_, index) => `I${index + 1}`);
  await bench.db.query(
    `INSERT INTO broker.broker (tenant_id, broker_number, name)
     SELECT $1, number, 'Importmakler ' || number FROM unnest($2::text[]) AS number`,
    [bench.fixture.tenantId, numbers],
  );
  return numbers;
}

/** What the inventory holds of the broker after its import. */
async function inventoryCounts(db: Pool, tenantId: string, broker: string) {
  const { rows } = await db.query<{ customers: number; contracts: number }>(
    `SELECT (SELECT count(*) FROM broker.customer c WHERE c.broker_id = b.id)::int AS customers,
            (SELECT count(*) FROM broker.contract k WHERE k.broker_id = b.id)::int AS contracts
       FROM broker.broker b WHERE b.tenant_id = $1 AND b.broker_number = $2`,
    [tenantId, broker],
  );
  return rows[0] ?? { customers: 0, contracts: 0 };
}

/**
 * Uploads one file per broker at once and waits for each to end; `measureSearches` runs in rounds until the last
 * import has ended. Throws when an import fails or its counts are not exactly the file's.
 */
export async function runConcurrentImports(
  bench: BrokerBench,
  plan: ImportPlan,
  measureSearches: () => Promise<KindResult[]>,
): Promise<ConcurrentImports> {
  const environment = await createImportTestEnvironment();
  const redis = createTestRedisNamespace();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'bp-pool-imports-'));
  // The imports poll their processes side by side, each on a connection of its own.
  const db = new Pool({ connectionString: bench.database.url, max: plan.imports });
  const services = await startImportServices({
    ...process.env,
    ...environment.env,
    DATABASE_URL: bench.database.url,
    REDIS_URL: redis.url,
    IMPORT_QUEUE_PREFIX: redis.prefix,
    IMPORT_MAX_UPLOAD_BYTES: String(2 * 1024 ** 3),
    LOG_LEVEL: 'warn',
  });
  try {
    const brokers = await insertImportBrokers(bench, plan.imports);
    // An insurer's policy belongs to one broker: each file has policy numbers of its own.
    const fileOf = (broker: string) => path.join(workDir, `${broker}.gdv`);
    for (const broker of brokers)
      await writeGdvPortfolio(createWriteStream(fileOf(broker)), {
        contracts: plan.contracts,
        policyPrefix: broker,
      });
    log('searches before the imports ...');
    const before = await measureSearches();
    log(`${plan.imports} imports of ${plan.contracts} contracts at once ...`);
    const started = process.hrtime.bigint();
    const processIds: string[] = [];
    const outcomes = brokers.map(async (broker): Promise<ImportOutcome> => {
      const token = await environment.authServer.token({ claims: { broker_id: broker } });
      const processId = await uploadGdv(services.api.port, fileOf(broker), token);
      processIds.push(processId);
      await waitForProcessed(db, processId);
      const seconds = since(started);
      return {
        broker,
        seconds,
        ...(await inventoryCounts(db, bench.fixture.tenantId, broker)),
        stages: await stageSeconds(db, processId),
      };
    });
    let running = true;
    const ended = Promise.all(outcomes).finally(() => (running = false));
    // A failed import is reported by the await below; until then it must not count as unhandled.
    ended.catch(() => undefined);
    const during: SearchRound[] = [];
    while (running) {
      log(`searches while importing, round ${during.length + 1} ...`);
      const statuses = await importStatuses(db, processIds);
      during.push({ statuses, results: await measureSearches() });
    }
    const result = {
      plan,
      outcomes: await ended,
      wallSeconds: since(started),
      workerPeakRssMiB: peakRssMiB(services.worker.pid),
      before,
      during,
    };
    checkCounts(result);
    return result;
  } finally {
    await services.stop();
    await db.end();
    await redis.clear();
    await environment.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function checkCounts({ plan, outcomes }: ConcurrentImports): void {
  const customers = plan.contracts / CONTRACTS_PER_CUSTOMER;
  const wrong = outcomes.filter(
    (outcome) => outcome.contracts !== plan.contracts || outcome.customers !== customers,
  );
  if (wrong.length > 0)
    throw new Error(
      `imports with wrong counts (expected ${customers} customers, ${plan.contracts} contracts): ` +
        wrong.map((o) => `${o.broker} ${o.customers} customers, ${o.contracts} contracts`).join('; '),
    );
}

/** The report: each import, then each kind's p95 before and in the slowest round while importing. */
export function concurrentImportLines(result: ConcurrentImports): string[] {
  const { plan, outcomes } = result;
  const lines = [
    `Concurrent imports: ${plan.imports} brokers each importing ${plan.contracts.toLocaleString('en-US')} contracts ` +
      `at once (one worker process), all processed in ${result.wallSeconds.toFixed(1)} s; ` +
      `worker peak RSS ${result.workerPeakRssMiB ?? 'n/a'} MiB.`,
    ...outcomes.map(
      (o) =>
        `- ${o.broker}: processed after ${o.seconds.toFixed(1)} s, ${o.customers} customers and ${o.contracts} ` +
        `contracts (exact); seconds per status ${JSON.stringify(o.stages)}`,
    ),
    '',
    `| kind | p95 ms before | p95 ms while importing (slowest of ${result.during.length} rounds) | ratio |`,
    '|---|---:|---:|---:|',
  ];
  for (const [index, before] of result.before.entries()) {
    const slowest = Math.max(...result.during.map((round) => round.results[index]?.p95 ?? 0));
    lines.push(
      `| ${before.kind} | ${before.p95.toFixed(1)} | ${slowest.toFixed(1)} | ${(slowest / before.p95).toFixed(2)} |`,
    );
  }
  lines.push(
    '',
    `| round | the imports' statuses when it began | ${result.before.map((kind) => `${kind.kind} p95 ms`).join(' | ')} |`,
    `|---:|---|${result.before.map(() => '---:').join('|')}|`,
    ...result.during.map(
      (round, index) =>
        `| ${index + 1} | ${round.statuses.join(', ') || 'uploading'} | ${round.results.map((kind) => kind.p95.toFixed(1)).join(' | ')} |`,
    ),
  );
  return lines;
}
