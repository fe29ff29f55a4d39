import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { parseConfig } from '@broker/config';
import { FIXTURE_WRITE, insertBrokerFixture, withAdministration } from '@broker/fixtures';
import { createHttpApp } from '@broker/platform';
import {
  createTestDatabase,
  startTestAuthorizationServer,
  TEST_OAUTH_ISSUER,
  type TestAuthorizationServer,
  type TestDatabase,
} from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { adminEnvShape } from '../src/config.js';
import { adminHttpSettings } from '../src/http-settings.js';

export const ADMIN_AUDIENCE = 'broker-platform-admin';
export const BASE = '/admin/v1';

type Method = 'get' | 'post' | 'patch' | 'delete';

export interface AdminTestApp {
  app: INestApplication;
  database: TestDatabase;
  /** A connection to the service's database, for a test's own reads. */
  db: Client;
  authServer: TestAuthorizationServer;
  /** The key API keys are stored under. */
  encryptionKey: Buffer;
  /** Every log line the service wrote (JSON), for the tests that look for secrets in them. */
  logLines: string[];
  /** A token of an operator of the pool (scope platform.operator). */
  operatorToken(claims?: Record<string, unknown>): Promise<string>;
  /** A token of the administrator of `tenant` (scope platform.admin). */
  adminToken(tenant?: string, claims?: Record<string, unknown>): Promise<string>;
  /** A token of area A (scope service.imports, tenant demo, broker V1000). */
  importToken(): Promise<string>;
  /** A request with `token` as bearer token; a body is sent as JSON. */
  call(token: string, method: Method, path: string, body?: object): request.Test;
  server(): App;
  close(): Promise<void>;
}

/**
 * The administration service as main.ts builds it, on its own database with the broker fixture (tenant demo) and a
 * second tenant `nord` with broker N1, and a real authorization server's JWKS. Logs at debug level, kept.
 */
export async function startAdminTestApp(env: Record<string, string> = {}): Promise<AdminTestApp> {
  const database = await createTestDatabase();
  await insertBrokerFixture(database.url);
  await withAdministration(database.url, async (admin) => {
    await admin.tenants.create(FIXTURE_WRITE, { id: 'nord', name: 'Nord Pool' });
    await admin.brokers.create(FIXTURE_WRITE, 'nord', {
      number: 'N1',
      name: 'Nord 1',
      parent: null,
      blocked: false,
    });
  });
  const authServer = await startTestAuthorizationServer();
  const encryptionKey = randomBytes(32);
  const config = parseConfig(adminEnvShape, {
    DATABASE_URL: database.url,
    ADMIN_OAUTH_ISSUER: TEST_OAUTH_ISSUER,
    ADMIN_OAUTH_AUDIENCE: ADMIN_AUDIENCE,
    ADMIN_OAUTH_JWKS_URL: authServer.jwksUrl,
    API_KEY_ENCRYPTION_KEY: encryptionKey.toString('base64'),
    LOG_LEVEL: 'debug',
    ...env,
  });
  const logLines: string[] = [];
  const app = await createHttpApp(
    AppModule.forRoot(config, { write: (line: string) => logLines.push(line) }),
    adminHttpSettings(config),
  );
  const db = new Client({ connectionString: database.url });
  await db.connect();
  const server = () => app.getHttpServer() as App;
  const adminClaims = { broker_id: undefined, client_id: 'admin-console' };
  const testApp: AdminTestApp = {
    app,
    database,
    db,
    authServer,
    encryptionKey,
    logLines,
    operatorToken: (claims = {}) =>
      authServer.token({
        audience: ADMIN_AUDIENCE,
        claims: {
          ...adminClaims,
          scope: 'platform.operator',
          tenant: undefined,
          sub: 'operator-1',
          ...claims,
        },
      }),
    adminToken: (tenant = 'demo', claims = {}) =>
      authServer.token({
        audience: ADMIN_AUDIENCE,
        claims: { ...adminClaims, scope: 'platform.admin', tenant, sub: `admin-of-${tenant}`, ...claims },
      }),
    importToken: () => authServer.token({ audience: ADMIN_AUDIENCE }),
    call(token, method, path, body) {
      const test = request(server())[method](`${BASE}${path}`).set('Authorization', `Bearer ${token}`);
      return body === undefined ? test : test.send(body);
    },
    server,
    async close() {
      await db.end();
      await app.close();
      await authServer.close();
      await database.drop();
    },
  };
  return testApp;
}
