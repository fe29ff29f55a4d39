import { randomBytes } from 'node:crypto';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import {
  createTestDatabase,
  describeErrorShapes,
  startTestAuthorizationServer,
  TEST_OAUTH_ISSUER,
  type TestAuthorizationServer,
  type TestDatabase,
} from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { adminEnvShape } from '../src/config.js';

describe('admin-service error shapes ({name, message, code, status})', () => {
  let database: TestDatabase;
  let authServer: TestAuthorizationServer;
  afterAll(async () => {
    await database?.drop();
    await authServer?.close();
  });

  describeErrorShapes({
    shape: 'api',
    createApp: (rootModule) => createHttpApp(rootModule),
    appModule: async () => {
      database = await createTestDatabase();
      authServer = await startTestAuthorizationServer();
      const env = {
        DATABASE_URL: database.url,
        ADMIN_OAUTH_ISSUER: TEST_OAUTH_ISSUER,
        ADMIN_OAUTH_AUDIENCE: 'broker-platform-admin',
        ADMIN_OAUTH_JWKS_URL: authServer.jwksUrl,
        API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        LOG_LEVEL: 'silent',
      };
      return AppModule.forRoot(parseConfig(adminEnvShape, env));
    },
  });
});
