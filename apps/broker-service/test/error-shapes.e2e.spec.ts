import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import { createTestDatabase, describeErrorShapes, testRedisUrl, type TestDatabase } from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { BROKER_HTTP_SETTINGS } from '../src/http-settings.js';
import { brokerEnvShape } from '../src/config.js';

describe('broker-service error shapes ({Meldungen: [...]})', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  describeErrorShapes({
    shape: 'meldungen',
    createApp: (rootModule) => createHttpApp(rootModule, BROKER_HTTP_SETTINGS),
    appModule: async () => {
      database = await createTestDatabase();
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        API_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
        LOG_LEVEL: 'silent',
      };
      return AppModule.forRoot(parseConfig(brokerEnvShape, env));
    },
  });
});
