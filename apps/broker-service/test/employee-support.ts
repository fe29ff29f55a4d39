import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import {
  createTestDatabase,
  createTestRedisNamespace,
  type TestDatabase,
  type TestRedisNamespace,
} from '@broker/testing';
import { createApiClients, createEmployees, insertBrokerFixture, withAdministration } from '@broker/fixtures';
import { AppModule } from '../src/app.module.js';
import { brokerEnvShape } from '../src/config.js';
import { BROKER_HTTP_SETTINGS } from '../src/http-settings.js';
import {
  type FixtureApiClient,
  FIXTURE_API_CLIENTS,
  FIXTURE_EMPLOYEES,
  insertEmployeeFixture,
  svcDigestHeaders,
} from './employee-fixture.js';

export const BASE = '/service/demo/employee/v1/rest';
/** {base_url} of the broker service in the fixture's tenant. */
export const BROKER_BASE = '/service/demo/broker/v1/rest';

/** A running broker service on its own database and Redis namespace, with the employee fixture. */
export interface EmployeeTestService {
  app: INestApplication;
  database: TestDatabase;
  /** A connection to that database, for a test's own reads and writes; closed with the service. */
  db: Client;
  customers: { v1000Customer: string; v1003Customer: string; v2000Customer: string };
  /** The key the service reads API keys with (API_KEY_ENCRYPTION_KEY). */
  encryptionKey: Buffer;
  /** A request signed with a fresh digest header group (default: the V1000 client). */
  call(
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    options?: { client?: FixtureApiClient; body?: unknown; headers?: Record<string, string> },
  ): request.Test;
  /** Path under `/{ma}` of an employee (default: 01_01 of V1000). */
  employeePath(path: string, employee?: string): string;
  /** A further API client of broker `brokerId` (its key stored encrypted) with an employee `employeeCode`. */
  addApiClient(brokerId: string, employeeCode: string): Promise<FixtureApiClient>;
  close(): Promise<void>;
}

/** `env` adds to or overrides the service's variables (e.g. SMTP_URL of a test mail server). */
export async function startEmployeeTestService(
  env: Record<string, string> = {},
): Promise<EmployeeTestService> {
  const database = await createTestDatabase();
  await insertBrokerFixture(database.url);
  const encryptionKey = randomBytes(32);
  const customers = await insertEmployeeFixture(database.url, encryptionKey);
  const redis: TestRedisNamespace = createTestRedisNamespace();
  const config = parseConfig(brokerEnvShape, {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    BROKER_REDIS_PREFIX: redis.prefix,
    API_KEY_ENCRYPTION_KEY: encryptionKey.toString('base64'),
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await createHttpApp(AppModule.forRoot(config), BROKER_HTTP_SETTINGS);
  await app.init();
  const db = new Client({ connectionString: database.url });
  await db.connect();
  return {
    app,
    database,
    db,
    customers,
    encryptionKey,
    call(method, path, options = {}) {
      const test = request(app.getHttpServer() as App)
        [method](path)
        .set(svcDigestHeaders(options.client ?? FIXTURE_API_CLIENTS.main))
        .set(options.headers ?? {});
      return options.body === undefined ? test : test.send(options.body as object);
    },
    employeePath: (path, employee = FIXTURE_EMPLOYEES.main) => `${BASE}/${employee}${path}`,
    async addApiClient(brokerId, employeeCode) {
      const apiClient = { apiId: `api-${brokerId}`, apiKey: randomBytes(16).toString('hex') };
      const { rows } = await db.query<{ number: string }>(
        'SELECT broker_number AS number FROM broker.broker WHERE id = $1',
        [brokerId],
      );
      const brokerNumber = rows[0].number;
      await withAdministration(
        database.url,
        async (admin) => {
          await createEmployees(admin, 'demo', [
            { broker: brokerNumber, number: employeeCode, name: 'Added Test' },
          ]);
          await createApiClients(admin, 'demo', [{ broker: brokerNumber, ...apiClient }]);
        },
        encryptionKey,
      );
      return apiClient;
    },
    async close() {
      await db.end();
      await app.close();
      await redis.clear();
      await database.drop();
    },
  };
}
