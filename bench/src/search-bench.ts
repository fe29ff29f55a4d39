import type { Client } from 'pg';
import { BrokerBench } from './broker-fixture.js';
import { cpuTimeMeter } from './cpu-time.js';
import { recordFigures } from './bench-build.js';
import {
  type Caller,
  type KindResult,
  measure,
  salutations,
  searchFigures,
  searchKunden,
} from './search-client.js';
import {
  COMMON_SURNAMES,
  copyCustomers,
  customer,
  type CustomerTarget,
  type SyntheticCustomer,
  weighted,
} from './synthetic-customers.js';

/**
 * searchKunden at scale: a fresh database with 1,000,000 synthetic customers (argument 1 changes the number),
 * each with a main address and most with an e-mail address and a phone number, spread over the brokers of the
 * test fixture; the built broker service as a child process; signed GET requests at a fixed concurrency for
 * several kinds of query, with latency percentiles, throughput and X-Svc-Total checked against SQL counts.
 * Finally the cost of the search triggers on a bulk write. Results in bench/README.md.
 */

const DEFAULT_CUSTOMERS = 1_000_000;
/** The extra batch written with the search triggers on, to show what they cost a bulk write. */
const TRIGGER_BATCH = 20_000;
const LOAD = { concurrency: 8, warmUp: 40, requests: 400 };
const EMPLOYEE = '01_01';
const API_CLIENT = { apiId: 'bench-api', apiKey: 'bench-api-key-0123456789' };

/** Where the customers belong: the bench's client (V1000) sees V1000 to V1003, not V2000. */
const BROKER_SHARES: [string, number][] = [
  ['V1000', 0.4],
  ['V1001', 0.2],
  ['V1002', 0.15],
  ['V1003', 0.15],
  ['V2000', 0.1],
];

/** The V1000 subtree, independent of the search table. */
const VISIBLE = `WITH RECURSIVE visible(id) AS (
    SELECT id FROM broker.broker WHERE broker_number = 'V1000'
    UNION ALL SELECT b.id FROM broker.broker b JOIN visible v ON b.parent_id = v.id)`;

/** X-Svc-Total against counts computed from the inventory tables directly, not from the search table. */
async function checkTotals(db: Client, caller: Caller, email: string): Promise<string[]> {
  const lines: string[] = [];
  const [byMail] = (
    await db.query<{ count: number }>(
      `${VISIBLE} SELECT count(DISTINCT k.customer_id)::int AS count
         FROM broker.contact k JOIN broker.customer c ON c.id = k.customer_id
        WHERE c.broker_id IN (SELECT id FROM visible) AND k.contact_type = 'email'
          AND position($1 IN lower(k.value)) > 0`,
      [email],
    )
  ).rows;
  const mail = await searchKunden(caller, email);
  lines.push(`e-mail ${email}: X-Svc-Total ${mail.total}, SQL count ${byMail?.count}`);
  const [byName] = (
    await db.query<{ count: number }>(
      `${VISIBLE} SELECT count(*)::int AS count FROM broker.customer c
        WHERE c.broker_id IN (SELECT id FROM visible) AND (
          lower(concat_ws(' ', c.first_name, c.last_name, c.company_name, c.contact_person)) ~ '(müller|mueller)'
          OR EXISTS (SELECT 1 FROM broker.address a WHERE a.customer_id = c.id
                       AND lower(concat_ws(' ', a.street, a.city)) ~ '(müller|mueller)')
          OR EXISTS (SELECT 1 FROM broker.contact k WHERE k.customer_id = c.id AND k.contact_type = 'email'
                       AND lower(k.value) ~ '(müller|mueller)'))`,
    )
  ).rows;
  const name = await searchKunden(caller, 'Müller');
  lines.push(`Müller: X-Svc-Total ${name.total}, SQL count ${byName?.count}`);
  // A prefix too short to match inside words: customers with a word beginning with it, several words counted once.
  // Words split as the search documents split them (migration 0008's word characters).
  const hasSchmWord = (text: string) =>
    `EXISTS (SELECT 1 FROM regexp_split_to_table(lower(${text}), '[^0-9a-z\\u00c0-\\uffff]+') word
              WHERE starts_with(word, 'schm'))`;
  const [byPrefix] = (
    await db.query<{ count: number }>(
      `${VISIBLE} SELECT count(*)::int AS count FROM broker.customer c
        WHERE c.broker_id IN (SELECT id FROM visible) AND (
          ${hasSchmWord(`concat_ws(' ', c.first_name, c.last_name, c.company_name, c.contact_person)`)}
          OR EXISTS (SELECT 1 FROM broker.address a WHERE a.customer_id = c.id
                       AND ${hasSchmWord(`concat_ws(' ', a.street, a.city)`)})
          OR EXISTS (SELECT 1 FROM broker.contact k WHERE k.customer_id = c.id AND k.contact_type = 'email'
                       AND lower(k.value) LIKE 'schm%'))`,
    )
  ).rows;
  const prefix = await searchKunden(caller, 'Schm');
  lines.push(`Schm: X-Svc-Total ${prefix.total}, SQL count ${byPrefix?.count}`);
  if (mail.total !== byMail?.count || name.total !== byName?.count || prefix.total !== byPrefix?.count)
    throw new Error(lines.join('; '));
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const customers = Number(process.argv[2] ?? DEFAULT_CUSTOMERS);
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  const bench = await BrokerBench.open(API_CLIENT, EMPLOYEE);
  try {
    const { db, fixture } = bench;
    const target: CustomerTarget = {
      tenantId: fixture.tenantId,
      brokerIds: fixture.brokers,
      brokerOf: weighted(BROKER_SHARES),
    };

    log(`seeding ${customers} customers by COPY (triggers off) ...`);
    const started = process.hrtime.bigint();
    await db.query('SET session_replication_role = replica');
    const copySeconds = await copyCustomers(db, target, 0, customers);
    await db.query('SET session_replication_role = DEFAULT');
    const rebuildStarted = process.hrtime.bigint();
    await db.query('SELECT broker.customer_search_rebuild()');
    const rebuildSeconds = Number(process.hrtime.bigint() - rebuildStarted) / 1e9;
    // The whole (fresh) database: the inventory and the search tables, whatever their names.
    await db.query('VACUUM ANALYZE');
    const seedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const sizes = (
      await db.query<{ name: string; size: string }>(
        `SELECT c.relname AS name, pg_size_pretty(pg_relation_size(c.oid)) AS size FROM pg_class c
          WHERE c.relname LIKE 'customer_search%' AND c.relkind IN ('r', 'i')
          ORDER BY c.relname`,
      )
    ).rows;

    const service = await bench.startService();
    const caller: Caller = { port: service.port, apiClient: API_CLIENT, employee: EMPLOYEE };

    const sample = (count: number, value: (c: SyntheticCustomer) => string | null) => {
      const values: string[] = [];
      for (let n = 7; values.length < count && n < customers; n += 9_973) {
        const c = customer(n, target.brokerOf);
        const found = fixture.brokers[c.broker] && c.broker !== 'V2000' ? value(c) : null;
        if (found) values.push(found);
      }
      return values;
    };
    const kinds: [string, string[]][] = [
      ['name prefix', ['Schm', 'Schn', 'Fisch', 'Wagn', 'Beck', 'Hoffm', 'Richt', 'Zimm', 'Neum', 'Kraus']],
      ['full e-mail address', sample(100, (c) => c.email)],
      ['postal code', sample(100, (c) => c.postalCode)],
      [
        'rare term (a surname of the long tail)',
        sample(100, (c) =>
          c.lastName && !COMMON_SURNAMES.some(([name]) => name === c.lastName) ? c.lastName : null,
        ),
      ],
      ['very common term', ['Müller', 'Schmidt', 'Schneider']],
      ['name and first name', sample(100, (c) => (c.lastName ? `${c.firstName} ${c.lastName}` : null))],
      ['phone number, other spacing', sample(100, (c) => (c.phone ? c.phone.replace(/\s/g, '') : null))],
      ['city of 4.5 % of the customers (outside the target kinds)', ['Berlin']],
    ];
    const cpu = cpuTimeMeter();
    const results: KindResult[] = [
      await measure('no search: getAnreden, for comparison', ['-'], () => salutations(caller), LOAD),
    ];
    for (const [kind, queries] of kinds) {
      log(`measuring ${kind} ...`);
      results.push(await measure(kind, queries, (q) => searchKunden(caller, q), LOAD));
    }
    log('measuring one letter ...');
    results.push(
      await measure('one letter (outside the target kinds)', ['a'], (q) => searchKunden(caller, q), {
        ...LOAD,
        requests: 80,
      }),
    );
    const cpuWhileMeasuring = cpu.read();
    const checks = await checkTotals(db, caller, sample(1, (c) => c.email)[0] ?? '');

    log(`writing ${TRIGGER_BATCH} more customers with the search triggers on ...`);
    const triggered = await copyCustomers(db, target, customers, TRIGGER_BATCH);
    await db.query('SET session_replication_role = replica');
    const untriggered = await copyCustomers(db, target, customers + TRIGGER_BATCH, TRIGGER_BATCH);
    await db.query('SET session_replication_role = DEFAULT');
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

    const machine = await bench.machine();
    const ms = (value: number) => value.toFixed(1);
    const lines = [
      `Machine: ${machine}. While the latencies were measured: ${cpuWhileMeasuring}.`,
      '',
      `Seeding ${customers} customers: COPY customers ${ms(copySeconds[0] ?? 0)} s, addresses ${ms(copySeconds[1] ?? 0)} s, ` +
        `contacts ${ms(copySeconds[2] ?? 0)} s; customer_search_rebuild() ${ms(rebuildSeconds)} s; total with VACUUM ANALYZE ${ms(seedSeconds)} s.`,
      `Sizes: ${sizes.map((row) => `${row.name} ${row.size}`).join(', ')}.`,
      '',
      `| kind | example q | distinct q | X-Svc-Total | p50 ms | p95 ms | p99 ms | requests/s |`,
      '|---|---|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.kind} | ${r.example} | ${r.queries} | ${r.kind.startsWith('no search') ? 'n/a' : r.totals} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.perSecond.toFixed(0)} |`,
      ),
      '',
      ...results
        .filter((r) => r.queries > 1 && r.queries <= 10)
        .map((r) => `- ${r.kind}: ${[...r.totalOf].map(([q, total]) => `${q} ${total}`).join(', ')}`),
      ...checks.map((line) => `- ${line}`),
      `- ${TRIGGER_BATCH} customers written by COPY with the search triggers on: ${triggered.map(ms).join(' + ')} s ` +
        `= ${ms(sum(triggered))} s; the same with triggers off: ${untriggered.map(ms).join(' + ')} s = ${ms(sum(untriggered))} s.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    recordFigures(results.flatMap((result) => searchFigures(result)));
  } finally {
    await bench.closeUnlessKept();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
