import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Client } from 'pg';
import { stopChild } from '@broker/local-services';
import {
  createTestDatabase,
  createTestRedisNamespace,
  type TestDatabase,
  type TestRedisNamespace,
} from '@broker/testing';
import { createApiClients, createEmployees, insertBrokerFixture, withAdministration } from '@broker/fixtures';
import { serviceEntry } from './bench-build.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';

/** The fixture's tenant, its brokers by number, and the key the service decrypts API keys with. */
export interface Fixture {
  tenantId: string;
  brokers: Record<string, string>;
  encryptionKey: Buffer;
}

/** An API client of area C: its id and its key in clear text. */
export interface ApiClientKey {
  apiId: string;
  apiKey: string;
}

/**
 * Like the broker service's test fixture: an API client of broker `brokerNumber` (its key stored encrypted with the
 * fixture's key) and, when `employee` is given, an employee of that broker with that code, through the administration.
 */
export async function insertCaller(
  databaseUrl: string,
  fixture: Fixture,
  brokerNumber: string,
  apiClient: ApiClientKey,
  employee?: string,
): Promise<void> {
  await withAdministration(
    databaseUrl,
    async (admin) => {
      if (employee !== undefined)
        await createEmployees(admin, 'demo', [
          { broker: brokerNumber, number: employee, name: 'Bench Mark' },
        ]);
      await createApiClients(admin, 'demo', [{ broker: brokerNumber, ...apiClient }]);
    },
    fixture.encryptionKey,
  );
}

/**
 * On a database with `insertBrokerFixture`: its tenant and brokers, a fresh encryption key, and an API client of
 * V1000 (with an employee of V1000 when `employee` is given), as in the broker service's test fixture.
 */
export async function insertApiClient(
  db: Client,
  databaseUrl: string,
  apiClient: ApiClientKey,
  employee?: string,
): Promise<Fixture> {
  const { rows } = await db.query<{ id: string; tenant_id: string; broker_number: string }>(
    'SELECT id::text, tenant_id::text, broker_number FROM broker.broker',
  );
  const brokers = Object.fromEntries(rows.map((row) => [row.broker_number, row.id]));
  const fixture = { tenantId: rows[0]?.tenant_id ?? '', brokers, encryptionKey: randomBytes(32) };
  await insertCaller(databaseUrl, fixture, 'V1000', apiClient, employee);
  return fixture;
}

/** The value at `share` (0.5 for the median) of ascending `sorted`. */
export const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;

const SERVICE_ENTRY = serviceEntry('apps/broker-service/dist/main.js');

/**
 * What the broker service benches stand on: a fresh database with the broker fixture and an API client
 * (`db` connected to it), a Redis namespace, and the built broker service as a child process once started.
 */
export class BrokerBench {
  private service: ServiceProcess | undefined;

  private constructor(
    readonly database: TestDatabase,
    private readonly redis: TestRedisNamespace,
    readonly db: Client,
    readonly fixture: Fixture,
  ) {}

  static async open(apiClient: ApiClientKey, employee?: string): Promise<BrokerBench> {
    const database = await createTestDatabase();
    const db = new Client({ connectionString: database.url });
    await db.connect();
    await insertBrokerFixture(database.url);
    return new BrokerBench(
      database,
      createTestRedisNamespace(),
      db,
      await insertApiClient(db, database.url, apiClient, employee),
    );
  }

  async startService(): Promise<ServiceProcess> {
    this.service = await startServiceProcess(SERVICE_ENTRY, {
      ...process.env,
      DATABASE_URL: this.database.url,
      REDIS_URL: this.redis.url,
      BROKER_REDIS_PREFIX: this.redis.prefix,
      API_KEY_ENCRYPTION_KEY: this.fixture.encryptionKey.toString('base64'),
      LOG_LEVEL: 'warn',
    });
    return this.service;
  }

  /** The machine and the database settings that shape the numbers, for a bench's report. */
  async machine(): Promise<string> {
    const { rows } = await this.db.query<{ version: string; shared_buffers: string; work_mem: string }>(
      `SELECT current_setting('server_version') AS version, current_setting('shared_buffers') AS shared_buffers,
              current_setting('work_mem') AS work_mem`,
    );
    const settings = rows[0];
    return (
      `${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, PostgreSQL ${settings?.version} ` +
      `(shared_buffers ${settings?.shared_buffers}, work_mem ${settings?.work_mem}), Node ${process.version}`
    );
  }

  /**
   * `close`, but with SEARCH_BENCH_KEEP_DATABASE=1 the database stays for EXPLAIN (its name is logged; drop it by
   * hand afterwards).
   */
  async closeUnlessKept(): Promise<void> {
    const keepDatabase = process.env.SEARCH_BENCH_KEEP_DATABASE === '1';
    if (keepDatabase) process.stderr.write(`bench: kept database ${this.database.name}\n`);
    await this.close(keepDatabase);
  }

  /** Stops the service and removes everything; `keepDatabase` leaves the database for a look afterwards. */
  async close(keepDatabase = false): Promise<void> {
    if (this.service) await stopChild(this.service, 'SIGTERM', 'SIGKILL', 10_000);
    await this.db.end().catch(() => undefined);
    await this.redis.clear();
    if (!keepDatabase) await this.database.drop();
  }
}
