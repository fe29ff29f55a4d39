import type { Client } from 'pg';
import { type BenchFigure, recordFigures } from './bench-build.js';
import { BrokerBench, insertCaller, percentile } from './broker-fixture.js';
import { insertPoolLayer, layerBrokerOf, poolLayer } from './broker-pool.js';
import { cpuTimeMeter } from './cpu-time.js';
import { databaseBackgroundMeter } from './database-background.js';
import {
  type Caller,
  customerPath,
  getOk,
  type KindResult,
  measure,
  type RawAnswer,
  salutations,
  searchFigures,
  searchKunden,
  searchPath,
  signedGet,
} from './search-client.js';
import {
  concurrentImportLines,
  type ConcurrentImports,
  type ImportPlan,
  runConcurrentImports,
} from './pool-imports.js';
import { buildReferenceVocabulary, referenceTotals, visibleBrokers } from './search-reference.js';
import { copyCustomers, prng } from './synthetic-customers.js';

/**
 * searchKunden on one tenant shaped like a broker pool (bench/README.md, "Search at pool scale"): customers
 * written through the live path (search triggers on) in statements of 20,000, then ANALYZE; three callers (a
 * small, a medium and a large broker) search their own customers by nine kinds of query; the tenant grows from
 * one size to the next and is measured at each; then an overload phase with a getKunde probe; finally several
 * imports of different brokers at once while the small and medium callers search.
 * Usage: search-pool-bench.js [sizes...] [--overload-seconds=N] [--imports=NxCONTRACTS]; sizes ascending, default
 * 200000 2000000; imports default 4x50000, --imports=0 leaves them out.
 */

const DEFAULT_SIZES = [200_000, 2_000_000];
const DEFAULT_OVERLOAD_SECONDS = 60;
const DEFAULT_IMPORTS: ImportPlan = { imports: 4, contracts: 50_000 };
/** What the callers search while the imports run, before and during. */
const IMPORT_PHASE_ROLES: Role[] = ['small', 'medium'];
const IMPORT_PHASE_KINDS = ['surname', 'city'];
const BATCH_CUSTOMERS = 20_000;
const LOAD = { concurrency: 16, warmUp: 40, requests: 400 };
/**
 * Unmeasured searches of every caller and kind before a size is measured: a service just started (or whose data
 * just grew ten times) answered its first thousands of requests up to twice as slowly as later ones (V8 still
 * compiling its hot paths, pools and caches filling), which the per-kind warm-up of 40 did not cover.
 */
const STAGE_WARM_UP = { concurrency: 16, requests: 3_000 };
const OVERLOAD_CONCURRENCY = 64;
/** getKunde one after the other, alone, just before the overload phase. */
const IDLE_PROBE = { concurrency: 1, warmUp: 40, requests: 400 };
/** Customers of a caller its queries are taken from, and at most this many distinct queries per kind. */
const SAMPLE_CUSTOMERS = 100;
const QUERIES_PER_KIND = 50;
const EMPLOYEE = '01_01';
/** The fixture's V1000 (no customers) asks for GET /anreden, the comparison without search. */
const API_CLIENT = { apiId: 'bench-api', apiKey: 'bench-api-key-0123456789' };
const SMALL_MAX_VISIBLE = 200;
const MEDIUM_VISIBLE = 5_000;
const TARGETS = { smallAndMediumP95: 25, largeP95: 50, smallRatio: 1.2, probeRatio: 3 };

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;
const ms = (value: number) => value.toFixed(1);
const count = (value: number) => value.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------------------------
// Arguments.

interface Options {
  sizes: number[];
  overloadSeconds: number;
  imports: ImportPlan | undefined;
}

/** `--imports=4x50000`: 4 imports of 50,000 contracts each; `--imports=0`: none. */
function parseImports(option: string | undefined): ImportPlan | undefined {
  if (option === undefined) return DEFAULT_IMPORTS;
  const value = option.split('=')[1] ?? '';
  if (value === '0') return undefined;
  const [imports, contracts] = value.split('x').map(Number);
  if (
    !Number.isInteger(imports) ||
    !Number.isInteger(contracts) ||
    !imports ||
    !contracts ||
    contracts % 2 !== 0
  )
    throw new Error('--imports must be 0 or NxCONTRACTS (an even number of contracts), e.g. 4x50000');
  return { imports, contracts };
}

function parseArguments(argv: string[]): Options {
  const overload = argv.find((arg) => arg.startsWith('--overload-seconds='));
  const imports = argv.find((arg) => arg.startsWith('--imports='));
  const unknown = argv.find((arg) => arg.startsWith('--') && arg !== overload && arg !== imports);
  if (unknown !== undefined) throw new Error(`unknown option ${unknown}`);
  const sizes = argv.filter((arg) => !arg.startsWith('--')).map(Number);
  const options = {
    sizes: sizes.length > 0 ? sizes : DEFAULT_SIZES,
    overloadSeconds: overload === undefined ? DEFAULT_OVERLOAD_SECONDS : Number(overload.split('=')[1]),
    imports: parseImports(imports),
  };
  const ascending = options.sizes.every(
    (size, index) => index === 0 || size > (options.sizes[index - 1] ?? 0),
  );
  if (!ascending || !options.sizes.every((size) => Number.isInteger(size) && size > 0))
    throw new Error('sizes must be whole numbers of customers, ascending');
  if (!(options.overloadSeconds > 0)) throw new Error('--overload-seconds must be a positive number');
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing a layer of the pool through the live path.

interface Writing {
  brokers: number;
  customers: number;
  /** COPY seconds summed over the batches: customers, addresses, contacts. */
  statementSeconds: number[];
  writeSeconds: number;
  analyzeSeconds: number;
}

/** Layer `layer` of the pool: its brokers, then its customers from..to-1 in batches, triggers on; then ANALYZE. */
async function writeLayer(bench: BrokerBench, layer: number, from: number, to: number): Promise<Writing> {
  const { db, fixture } = bench;
  const brokers = poolLayer(layer, from, to);
  const target = {
    tenantId: fixture.tenantId,
    brokerIds: await insertPoolLayer(db, fixture.tenantId, brokers),
    brokerOf: layerBrokerOf(brokers),
  };
  log(`writing customers ${count(from)} to ${count(to)} over ${count(brokers.length)} new brokers ...`);
  const statementSeconds = [0, 0, 0];
  const started = process.hrtime.bigint();
  for (let first = from; first < to; first += BATCH_CUSTOMERS) {
    const batch = Math.min(BATCH_CUSTOMERS, to - first);
    const parts = await copyCustomers(db, target, first, batch);
    parts.forEach((part, index) => (statementSeconds[index] = (statementSeconds[index] ?? 0) + part));
    log(`  ${count(first + batch)} of ${count(to)} written after ${ms(seconds(started))} s`);
  }
  const writeSeconds = seconds(started);
  const analyzeStarted = process.hrtime.bigint();
  await db.query('ANALYZE');
  return {
    brokers: brokers.length,
    customers: to - from,
    statementSeconds,
    writeSeconds,
    analyzeSeconds: seconds(analyzeStarted),
  };
}

/** customer + address + contact with their indexes, and the relations named customer_search* (whatever they are). */
async function relationSizes(db: Client): Promise<string> {
  const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;
  const { rows: inventory } = await db.query<{ bytes: string }>(
    `SELECT pg_total_relation_size('broker.customer') + pg_total_relation_size('broker.address')
          + pg_total_relation_size('broker.contact') AS bytes`,
  );
  // A table with its indexes; an index alone only when its table is not one of them.
  const { rows: search } = await db.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name,
            CASE WHEN c.relkind = 'i' THEN pg_relation_size(c.oid) ELSE pg_total_relation_size(c.oid) END AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_index x ON x.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = x.indrelid
      WHERE n.nspname = 'broker' AND c.relname LIKE 'customer\\_search%' AND c.relkind IN ('r', 'm', 'p', 'i')
        AND (t.relname IS NULL OR t.relname NOT LIKE 'customer\\_search%')
      ORDER BY c.relname`,
  );
  const searchBytes = search.reduce((sum, row) => sum + Number(row.bytes), 0);
  return (
    `customer + address + contact ${mb(Number(inventory[0]?.bytes))}; ` +
    `customer_search* ${mb(searchBytes)} (${search.map((row) => `${row.name} ${mb(Number(row.bytes))}`).join(', ')})`
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The callers: brokers of the pool with how many customers they see, an API client and employee each.

type Role = 'small' | 'medium' | 'large';

interface BrokerReach {
  id: string;
  number: string;
  top: boolean;
  hasSubBrokers: boolean;
  brokers: number;
  visible: number;
}

/** Each pool broker with the brokers and customers it sees (itself and all below it). */
async function brokerReach(db: Client, tenantId: string): Promise<BrokerReach[]> {
  const { rows } = await db.query<BrokerReach>(
    `WITH RECURSIVE below(root, id) AS (
         SELECT id, id FROM broker.broker WHERE tenant_id = $1
         UNION ALL SELECT below.root, b.id FROM below JOIN broker.broker b ON b.parent_id = below.id),
       own AS (SELECT broker_id, count(*) AS customers FROM broker.customer WHERE tenant_id = $1 GROUP BY broker_id)
     SELECT r.id::text, r.broker_number AS number, r.parent_id IS NULL AS top,
            EXISTS (SELECT 1 FROM broker.broker s WHERE s.parent_id = r.id) AS "hasSubBrokers",
            count(*)::int AS brokers, coalesce(sum(own.customers), 0)::int AS visible
       FROM below JOIN broker.broker r ON r.id = below.root LEFT JOIN own ON own.broker_id = below.id
      WHERE r.broker_number LIKE 'P%'
      GROUP BY r.id`,
    [tenantId],
  );
  return rows;
}

const best = (brokers: BrokerReach[], better: (a: BrokerReach, b: BrokerReach) => number) => {
  const found = [...brokers].sort((a, b) => better(a, b) || a.number.localeCompare(b.number))[0];
  if (!found) throw new Error('no broker fits');
  return found;
};

/** small: at most 200 visible, with sub-brokers if any such, the most; medium: nearest 5,000; large: biggest top. */
const CHOICE: Record<Role, (brokers: BrokerReach[]) => BrokerReach> = {
  small: (brokers) =>
    best(
      brokers.filter((broker) => broker.visible > 0 && broker.visible <= SMALL_MAX_VISIBLE),
      (a, b) => Number(b.hasSubBrokers) - Number(a.hasSubBrokers) || b.visible - a.visible,
    ),
  medium: (brokers) =>
    best(brokers, (a, b) => Math.abs(a.visible - MEDIUM_VISIBLE) - Math.abs(b.visible - MEDIUM_VISIBLE)),
  large: (brokers) =>
    best(
      brokers.filter((broker) => broker.top),
      (a, b) => b.visible - a.visible,
    ),
};

interface SampleCustomer {
  id: string;
  firstName: string | null;
  lastName: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  email: string | null;
  phone: string | null;
}

interface PoolCaller {
  role: Role;
  reach: BrokerReach;
  caller: Caller;
  /** Customers the caller sees, a fixed sample: where its queries come from. */
  sample: SampleCustomer[];
}

/** A fixed sample of the customers the broker sees (the same at every size while they do not change). */
async function sampleCustomers(db: Client, brokerId: string): Promise<SampleCustomer[]> {
  const { rows } = await db.query<SampleCustomer>(
    `WITH RECURSIVE ${visibleBrokers('$1')}
     SELECT c.id::text, c.first_name AS "firstName", c.last_name AS "lastName", a.street,
            a.postal_code AS "postalCode", a.city,
            (SELECT k.value FROM broker.contact k WHERE k.customer_id = c.id AND k.contact_type = 'email'
              ORDER BY k.id LIMIT 1) AS email,
            (SELECT k.value FROM broker.contact k WHERE k.customer_id = c.id AND k.contact_type IN ('telefon', 'mobil')
              ORDER BY k.id LIMIT 1) AS phone
       FROM broker.customer c LEFT JOIN broker.address a ON a.customer_id = c.id AND a.address_no = 0
      WHERE c.broker_id IN (SELECT id FROM visible)
      ORDER BY md5(c.id::text) LIMIT $2`,
    [brokerId, SAMPLE_CUSTOMERS],
  );
  return rows;
}

/**
 * The callers at the current size: the small and medium ones chosen once (at the first size, so that each size
 * measures the same broker), the large one anew. Each broker's API client and employee are inserted once.
 */
function callerChooser(bench: BrokerBench, port: number) {
  const chosen = new Map<Role, string>();
  const inserted = new Set<string>();
  const enlist = async (reach: BrokerReach): Promise<Caller> => {
    const apiClient = { apiId: `pool-${reach.number}`, apiKey: `pool-key-${reach.number}-0123456789` };
    if (!inserted.has(reach.number))
      await insertCaller(bench.database.url, bench.fixture, reach.number, apiClient, EMPLOYEE);
    inserted.add(reach.number);
    return { port, apiClient, employee: EMPLOYEE };
  };
  return async (): Promise<PoolCaller[]> => {
    const brokers = await brokerReach(bench.db, bench.fixture.tenantId);
    const callers: PoolCaller[] = [];
    for (const role of ['small', 'medium', 'large'] as const) {
      const kept =
        role === 'large' ? undefined : brokers.find((broker) => broker.number === chosen.get(role));
      const reach = kept ?? CHOICE[role](brokers);
      chosen.set(role, reach.number);
      callers.push({
        role,
        reach,
        caller: await enlist(reach),
        sample: await sampleCustomers(bench.db, reach.id),
      });
    }
    return callers;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Queries and measurements.

interface Kind {
  name: string;
  query: (customer: SampleCustomer, index: number) => string | null;
  /** X-Svc-Total compared with a count from the inventory tables (queries of letters only). */
  checked: boolean;
}

const KINDS: Kind[] = [
  { name: 'surname', query: (c) => c.lastName, checked: true },
  {
    name: 'name prefix (4-5 letters)',
    query: (c, index) => c.lastName?.slice(0, 4 + (index % 2)) ?? null,
    checked: true,
  },
  {
    name: 'first and last name',
    query: (c) => (c.lastName ? `${c.firstName} ${c.lastName}` : null),
    checked: true,
  },
  {
    name: 'street (without number)',
    query: (c) => c.street?.replace(/\s+\d+[a-z]?$/, '') ?? null,
    checked: true,
  },
  { name: 'city', query: (c) => c.city, checked: true },
  { name: 'postal code', query: (c) => c.postalCode, checked: false },
  { name: 'e-mail (full)', query: (c) => c.email, checked: false },
  {
    name: 'phone (digits, other spacing)',
    query: (c) => c.phone?.replace(/\s/g, '') ?? null,
    checked: false,
  },
  { name: 'customer id', query: (c) => c.id, checked: false },
];

/** The distinct queries of a kind from the caller's sample. */
function queriesOf(kind: Kind, sample: SampleCustomer[]): string[] {
  const queries = [
    ...new Set(
      sample
        .map((customer, index) => kind.query(customer, index))
        .filter((q): q is string => q !== null && q !== ''),
    ),
  ];
  if (queries.length === 0) throw new Error(`no customer of the sample gives a query of kind ${kind.name}`);
  return queries.slice(0, QUERIES_PER_KIND);
}

interface CallerResult {
  pool: PoolCaller;
  results: KindResult[];
  check: string;
}

/** X-Svc-Total of every query of the checked kinds against the count from the inventory tables; else throws. */
async function checkTotals(db: Client, pool: PoolCaller, results: KindResult[]): Promise<string> {
  const checked = results.filter((result) => KINDS.find((kind) => kind.name === result.kind)?.checked);
  const totals = new Map(checked.flatMap((result) => [...result.totalOf]));
  const started = process.hrtime.bigint();
  const expected = await referenceTotals(db, pool.reach.id, [...totals.keys()]);
  const countSeconds = seconds(started);
  const wrong = [...totals]
    .filter(([q, total]) => expected.get(q) !== total)
    .map(([q, total]) => `${q}: X-Svc-Total ${total}, SQL count ${expected.get(q)}`);
  if (wrong.length > 0)
    throw new Error(
      `${pool.role} caller ${pool.reach.number}, totals wrong: ${wrong.slice(0, 10).join('; ')}`,
    );
  return (
    `${pool.role} caller: X-Svc-Total equals the SQL count for all ${totals.size} queries of ` +
    `${checked.map((r) => r.kind).join(', ')} (counted in ${ms(countSeconds)} s)`
  );
}

async function measureCaller(pool: PoolCaller, kinds = KINDS): Promise<KindResult[]> {
  const results: KindResult[] = [];
  for (const kind of kinds) {
    log(`${pool.role} caller ${pool.reach.number} (${count(pool.reach.visible)} visible): ${kind.name} ...`);
    const queries = queriesOf(kind, pool.sample);
    results.push(await measure(kind.name, queries, (q) => searchKunden(pool.caller, q), LOAD));
  }
  return results;
}

interface Stage {
  size: number;
  writing: Writing;
  sizes: string;
  cpu: string;
  /** PostgreSQL's own work (autovacuum, checkpoints) while the searches were measured. */
  background: string;
  salutations: KindResult;
  callers: CallerResult[];
}

async function warmUp(callers: PoolCaller[]): Promise<void> {
  log(`warm-up: ${count(STAGE_WARM_UP.requests)} searches of every caller and kind ...`);
  let started = 0;
  await searchWhile(
    () => started++ < STAGE_WARM_UP.requests,
    STAGE_WARM_UP.concurrency,
    searchMix(callers),
    (caller, q) => searchKunden(caller, q),
  );
}

async function measureStage(
  bench: BrokerBench,
  callers: PoolCaller[],
  port: number,
): Promise<Omit<Stage, 'size' | 'writing' | 'sizes'>> {
  await warmUp(callers);
  const cpu = cpuTimeMeter();
  const database = await databaseBackgroundMeter(bench.db);
  const anreden = { port, apiClient: API_CLIENT, employee: EMPLOYEE };
  const comparison = await measure('no search: GET /anreden', ['-'], () => salutations(anreden), LOAD);
  const measured: KindResult[][] = [];
  for (const pool of callers) measured.push(await measureCaller(pool));
  const cpuWhileMeasuring = cpu.read();
  const backgroundWhileMeasuring = await database.read();
  await buildReferenceVocabulary(bench.db);
  const results: CallerResult[] = [];
  for (const [index, pool] of callers.entries()) {
    const kinds = measured[index] ?? [];
    results.push({ pool, results: kinds, check: await checkTotals(bench.db, pool, kinds) });
  }
  return {
    cpu: cpuWhileMeasuring,
    background: backgroundWhileMeasuring,
    salutations: comparison,
    callers: results,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Overload: searches of every caller and kind, many in flight, while a probe reads one customer at a time.

interface Tally {
  ok: number;
  serverErrors: number;
  otherStatus: number;
  /** No answer at all (connection refused or reset). */
  failed: number;
}

const newTally = (): Tally => ({ ok: 0, serverErrors: 0, otherStatus: 0, failed: 0 });

async function tallied(tally: Tally, request: Promise<RawAnswer>): Promise<RawAnswer | undefined> {
  try {
    const answer = await request;
    if (answer.status >= 500) tally.serverErrors += 1;
    else if (answer.status === 200) tally.ok += 1;
    else tally.otherStatus += 1;
    return answer;
  } catch {
    tally.failed += 1;
    return undefined;
  }
}

/** Every caller's queries of every kind, in a fixed shuffled order. */
function searchMix(callers: PoolCaller[]): [Caller, string][] {
  const mix = callers.flatMap((pool) =>
    KINDS.flatMap((kind) => queriesOf(kind, pool.sample).map((q): [Caller, string] => [pool.caller, q])),
  );
  const random = prng(42);
  for (let index = mix.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [mix[index], mix[other]] = [mix[other], mix[index]];
  }
  return mix;
}

interface Overload {
  seconds: number;
  searches: Tally;
  probe: Tally;
  probeIdleP95: number;
  probeLoadP95: number;
  probeRequests: number;
  cpu: string;
}

/** Searches from `mix` in turn, `concurrency` in flight, each started while `more()` holds. */
async function searchWhile(
  more: () => boolean,
  concurrency: number,
  mix: [Caller, string][],
  search: (caller: Caller, q: string) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const searcher = async () => {
    while (more()) {
      const [caller, q] = mix[next++ % mix.length];
      await search(caller, q);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, searcher));
}

/** getKunde of the `ids` in turn, one at a time, until `deadline`; the latencies of the answers, ascending. */
async function probeUntil(deadline: number, probe: Caller, ids: string[], tally: Tally): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; Date.now() < deadline; index += 1) {
    const answer = await tallied(tally, signedGet(probe, customerPath(probe, ids[index % ids.length] ?? '')));
    if (answer) latencies.push(answer.milliseconds);
  }
  return latencies.sort((a, b) => a - b);
}

async function overload(callers: PoolCaller[], probe: PoolCaller, duration: number): Promise<Overload> {
  const ids = probe.sample.map((customer) => customer.id);
  log('getKunde probe, idle ...');
  const getKunde = (id: string) => getOk(probe.caller, customerPath(probe.caller, id));
  const idle = await measure('getKunde', ids, getKunde, IDLE_PROBE);
  log(`overload: ${OVERLOAD_CONCURRENCY} searches in flight for ${duration} s ...`);
  const [searches, probeTally] = [newTally(), newTally()];
  const cpu = cpuTimeMeter();
  const started = process.hrtime.bigint();
  const deadline = Date.now() + duration * 1000;
  const [, probeLatencies] = await Promise.all([
    searchWhile(
      () => Date.now() < deadline,
      OVERLOAD_CONCURRENCY,
      searchMix(callers),
      (caller, q) => tallied(searches, signedGet(caller, searchPath(caller, q))),
    ),
    probeUntil(deadline, probe.caller, ids, probeTally),
  ]);
  return {
    seconds: seconds(started),
    searches,
    probe: probeTally,
    probeIdleP95: idle.p95,
    probeLoadP95: percentile(probeLatencies, 0.95),
    probeRequests: probeLatencies.length,
    cpu: cpu.read(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report.

const callersLine = (stage: Stage) =>
  `Callers at ${count(stage.size)} customers: ` +
  stage.callers
    .map(
      ({ pool }) =>
        `${pool.role} ${pool.reach.number} (${count(pool.reach.visible)} customers, ${pool.reach.brokers} brokers)`,
    )
    .join(', ');

function writingLine(stage: Stage): string {
  const { writing } = stage;
  const [customers, addresses, contacts] = writing.statementSeconds.map(ms);
  return (
    `${count(stage.size)} customers: wrote ${count(writing.customers)} over ${count(writing.brokers)} new brokers in ` +
    `${ms(writing.writeSeconds)} s (${count(Math.round(writing.customers / writing.writeSeconds))} customers/s; ` +
    `COPY customers ${customers} s, addresses ${addresses} s, contacts ${contacts} s; ${count(BATCH_CUSTOMERS)} ` +
    `a statement, search triggers on), ANALYZE ${ms(writing.analyzeSeconds)} s. Sizes: ${stage.sizes}. ` +
    `While measuring: ${stage.cpu}; ${stage.background}.`
  );
}

function resultRows(stage: Stage): string[] {
  const row = (caller: string, r: KindResult, totals: string) =>
    `| ${count(stage.size)} | ${caller} | ${r.kind} | ${r.example} | ${r.queries} | ${totals} | ${ms(r.p50)} | ` +
    `${ms(r.p95)} | ${ms(r.p99)} | ${r.perSecond.toFixed(0)} |`;
  return [
    row('V1000', stage.salutations, 'n/a'),
    ...stage.callers.flatMap(({ pool, results }) => results.map((r) => row(pool.role, r, r.totals))),
  ];
}

/** A stage's figures for bench:compare: every caller's kinds, by size, caller and kind. */
function stageFigures(stage: Stage): BenchFigure[] {
  return stage.callers.flatMap(({ pool, results }) =>
    results.flatMap((result) =>
      searchFigures(result, `${count(stage.size)}, ${pool.role} caller, ${result.kind}`),
    ),
  );
}

const resultsOf = (stage: Stage | undefined, role: Role) =>
  stage?.callers.find(({ pool }) => pool.role === role)?.results ?? [];

/** The small caller's p95 at the last size over the first, per kind. */
function smallRatios(stages: Stage[]): { kind: string; first: number; last: number; ratio: number }[] {
  if (stages.length < 2) return [];
  const last = resultsOf(stages[stages.length - 1], 'small');
  return resultsOf(stages[0], 'small').map((first, index) => {
    const p95 = last[index]?.p95 ?? 0;
    return { kind: first.kind, first: first.p95, last: p95, ratio: p95 / first.p95 };
  });
}

function ratioLines(stages: Stage[]): string[] {
  const ratios = smallRatios(stages);
  if (ratios.length === 0) return [];
  const [first, last] = [stages[0]?.size ?? 0, stages[stages.length - 1]?.size ?? 0].map(count);
  return [
    '',
    `| small caller: kind | p95 ms at ${first} | p95 ms at ${last} | ratio |`,
    '|---|---:|---:|---:|',
    ...ratios.map((r) => `| ${r.kind} | ${ms(r.first)} | ${ms(r.last)} | ${r.ratio.toFixed(2)} |`),
  ];
}

function overloadLine(result: Overload, options: Options): string {
  const { searches, probe } = result;
  return (
    `Overload: ${OVERLOAD_CONCURRENCY} searches in flight for ${ms(result.seconds)} s (--overload-seconds=` +
    `${options.overloadSeconds}), every caller's queries of every kind mixed: ${count(searches.ok)} answered 200 ` +
    `(${(searches.ok / result.seconds).toFixed(0)} searches/s); 5xx ${searches.serverErrors + probe.serverErrors} ` +
    `(probe ${probe.serverErrors}), other non-200 ${searches.otherStatus + probe.otherStatus}, no answer ` +
    `${searches.failed + probe.failed}. getKunde probe, one at a time: p95 ${ms(result.probeIdleP95)} ms idle just ` +
    `before, ${ms(result.probeLoadP95)} ms under load (${count(result.probeRequests)} requests), ` +
    `${(result.probeLoadP95 / result.probeIdleP95).toFixed(2)} ×. ${result.cpu}.`
  );
}

/** Whether a measured value is within its target, with the value. */
const verdict = (value: number, limit: number, what: string) =>
  `${value <= limit ? 'met' : 'NOT met'} (${what})`;

const slowest = (results: KindResult[]) => [...results].sort((a, b) => b.p95 - a.p95)[0];

function targetLines(stages: Stage[], result: Overload): string[] {
  const last = stages[stages.length - 1];
  const line = (role: Role, limit: number) => {
    const worst = slowest(resultsOf(last, role));
    return (
      `- ${role} caller p95 ≤ ${limit} ms in every kind at ${count(last?.size ?? 0)}: ` +
      verdict(
        worst?.p95 ?? Infinity,
        limit,
        worst ? `worst ${ms(worst.p95)} ms, ${worst.kind}` : 'not measured',
      )
    );
  };
  const ratios = smallRatios(stages);
  const worstRatio = [...ratios].sort((a, b) => b.ratio - a.ratio)[0];
  const probeRatio = result.probeLoadP95 / result.probeIdleP95;
  const serverErrors = result.searches.serverErrors + result.probe.serverErrors;
  return [
    line('small', TARGETS.smallAndMediumP95),
    line('medium', TARGETS.smallAndMediumP95),
    line('large', TARGETS.largeP95),
    worstRatio
      ? `- small caller p95 ratio last/first size ≤ ${TARGETS.smallRatio} in every kind: ` +
        verdict(
          worstRatio.ratio,
          TARGETS.smallRatio,
          `worst ${worstRatio.ratio.toFixed(2)}, ${worstRatio.kind}`,
        )
      : '- small caller ratio: one size only, not measured',
    `- overload without 5xx: ${verdict(serverErrors, 0, `${serverErrors}`)}`,
    `- getKunde probe p95 under load ≤ ${TARGETS.probeRatio} × idle: ` +
      verdict(probeRatio, TARGETS.probeRatio, `${probeRatio.toFixed(2)} ×`),
  ];
}

/** The small and medium callers' surname and city searches, named by caller and kind. */
async function importPhaseSearches(callers: PoolCaller[]): Promise<KindResult[]> {
  const kinds = KINDS.filter((kind) => IMPORT_PHASE_KINDS.includes(kind.name));
  const results: KindResult[] = [];
  for (const pool of callers.filter((caller) => IMPORT_PHASE_ROLES.includes(caller.role)))
    for (const result of await measureCaller(pool, kinds))
      results.push({ ...result, kind: `${pool.role} caller, ${result.kind}` });
  return results;
}

function report(
  machine: string,
  stages: Stage[],
  result: Overload,
  imports: ConcurrentImports | undefined,
  options: Options,
): string {
  return [
    `Machine: ${machine}.`,
    '',
    ...stages.flatMap((stage) => [`- ${writingLine(stage)}`, `- ${callersLine(stage)}`]),
    '',
    '| customers | caller | kind | example q | distinct q | X-Svc-Total | p50 ms | p95 ms | p99 ms | requests/s |',
    '|---:|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...stages.flatMap(resultRows),
    ...ratioLines(stages),
    '',
    overloadLine(result, options),
    '',
    ...(imports ? [...concurrentImportLines(imports), ''] : []),
    ...stages.flatMap((stage) => stage.callers.map(({ check }) => `- ${count(stage.size)}: ${check}`)),
    '',
    'Targets:',
    ...targetLines(stages, result),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const bench = await BrokerBench.open(API_CLIENT, EMPLOYEE);
  try {
    const service = await bench.startService();
    const chooseCallers = callerChooser(bench, service.port);
    const stages: Stage[] = [];
    let callers: PoolCaller[] = [];
    for (const [index, size] of options.sizes.entries()) {
      const writing = await writeLayer(bench, index + 1, options.sizes[index - 1] ?? 0, size);
      const sizes = await relationSizes(bench.db);
      callers = await chooseCallers();
      stages.push({ size, writing, sizes, ...(await measureStage(bench, callers, service.port)) });
    }
    const small = callers.find((pool) => pool.role === 'small');
    if (!small) throw new Error('no small caller');
    const result = await overload(callers, small, options.overloadSeconds);
    const imports =
      options.imports &&
      (await runConcurrentImports(bench, options.imports, () => importPhaseSearches(callers)));
    process.stdout.write(report(await bench.machine(), stages, result, imports, options));
    recordFigures(stages.flatMap(stageFigures));
  } finally {
    await bench.closeUnlessKept();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
