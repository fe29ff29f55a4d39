import { generateKeyPairSync } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { LoginTokenService } from '@broker/auth';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import { FIXTURE_WRITE, withAdministration } from '@broker/fixtures';
import { createTestDatabase, type TestDatabase } from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { type CalcConfig, calcEnvShape } from '../src/config.js';
import { CALC_HTTP_SETTINGS } from '../src/http-settings.js';

/** A password the platform's rules take (zxcvbn score 4, no user name in it). */
export const PASSWORD = 'Kiesel Abendrot Mondschein';

/** Users of the test tenant `demo`, all with PASSWORD; `gesperrt` is disabled. */
const USERS = [
  ['Rechner', false],
  ['gesperrt', true],
  ['drossel', false],
] as const;

export interface CalcTestApp {
  app: INestApplication;
  config: CalcConfig;
  /** The service's database, for the administration's use cases. */
  databaseUrl: string;
  server(): App;
  login(username: string, password: string): request.Test;
  /** A fresh token of the user `Rechner`. */
  token(): Promise<string>;
  /** Signs tokens with the service's key, e.g. already expired ones. */
  tokens: LoginTokenService;
  /** Runs a statement on the service's database (to disable or delete a user). */
  query(sql: string, parameters?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

/** The calculation service on Fastify, as main.ts builds it, over its own test database with a few users. */
export async function startCalcTestApp(env: Record<string, string> = {}): Promise<CalcTestApp> {
  const database: TestDatabase = await createTestDatabase();
  await withAdministration(database.url, async (admin) => {
    await admin.tenants.create(FIXTURE_WRITE, { id: 'demo', name: 'Demo' });
    for (const [username, disabled] of USERS) {
      await admin.calcUsers.create(FIXTURE_WRITE, 'demo', { username, password: PASSWORD });
      if (disabled) await admin.calcUsers.update(FIXTURE_WRITE, 'demo', username, { disabled });
    }
  });
  const config = parseConfig(calcEnvShape, {
    DATABASE_URL: database.url,
    CALC_JWT_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await createHttpApp(AppModule.forRoot(config), CALC_HTTP_SETTINGS);
  const server = () => app.getHttpServer() as App;
  const login = (username: string, password: string) =>
    request(server()).post('/api/login').send({ username, password });
  return {
    app,
    config,
    databaseUrl: database.url,
    server,
    login,
    token: async () => ((await login('Rechner', PASSWORD).expect(200)).body as { token: string }).token,
    tokens: new LoginTokenService({
      privateKeyPem: config.CALC_JWT_PRIVATE_KEY,
      keyId: config.CALC_JWT_KEY_ID,
      issuer: config.CALC_JWT_ISSUER,
      ttlSeconds: config.CALC_TOKEN_TTL_SECONDS,
    }),
    query: async (sql, parameters = []) => {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(sql, parameters);
      } finally {
        await client.end();
      }
    },
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
