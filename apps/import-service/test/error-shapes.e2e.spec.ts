import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import { createTestDatabase, describeErrorShapes, testRedisUrl, type TestDatabase } from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { importEnvShape } from '../src/config.js';

describe('import-service error shapes ({name, message, code, status})', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  describeErrorShapes({
    shape: 'api',
    createApp: (rootModule) => createHttpApp(rootModule),
    appModule: async () => {
      database = await createTestDatabase();
      const env = { DATABASE_URL: database.url, REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent' };
      return AppModule.forRoot(parseConfig(importEnvShape, env));
    },
  });
});
