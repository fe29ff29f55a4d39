import { generateKeyPairSync } from 'node:crypto';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import { createTestDatabase, describeErrorShapes, type TestDatabase } from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { calcEnvShape } from '../src/config.js';
import { CALC_HTTP_SETTINGS } from '../src/http-settings.js';

describe('calc-service error shapes ({name, message, code, status})', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  describeErrorShapes({
    shape: 'api',
    createApp: (rootModule) => createHttpApp(rootModule, CALC_HTTP_SETTINGS),
    appModule: async () => {
      database = await createTestDatabase();
      return AppModule.forRoot(
        parseConfig(calcEnvShape, {
          DATABASE_URL: database.url,
          CALC_JWT_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
          LOG_LEVEL: 'silent',
        }),
      );
    },
  });
});
