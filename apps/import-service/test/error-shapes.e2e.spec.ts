import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import {
  createImportTestEnvironment,
  createTestDatabase,
  describeErrorShapes,
  type ImportTestEnvironment,
  testRedisUrl,
  type TestDatabase,
} from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { importEnvShape } from '../src/config.js';

describe('import-service error shapes ({name, message, code, status})', () => {
  let database: TestDatabase;
  let importEnvironment: ImportTestEnvironment;
  afterAll(async () => {
    await database?.drop();
    await importEnvironment?.cleanup();
  });

  describeErrorShapes({
    shape: 'api',
    createApp: (rootModule) => createHttpApp(rootModule),
    appModule: async () => {
      database = await createTestDatabase();
      importEnvironment = await createImportTestEnvironment();
      const env = {
        ...importEnvironment.env,
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        LOG_LEVEL: 'silent',
      };
      return AppModule.forRoot(parseConfig(importEnvShape, env));
    },
  });
});
