import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createImportTestEnvironment, createTestDatabase, createTestRedisNamespace } from '@broker/testing';

/** What every process of the suite needs to boot in a test: its own database, Redis namespace and keys. */
export interface SuiteEnvironment {
  env: NodeJS.ProcessEnv;
  /**
   * An import-service access token (tenant demo, broker V1000 unless given, scope service.imports) from the test
   * authorization server.
   */
  importToken(brokerNumber?: string, tenant?: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** `overrides` adds to or replaces variables (LOG_LEVEL is `info` unless given). */
export async function createSuiteEnvironment(overrides: NodeJS.ProcessEnv = {}): Promise<SuiteEnvironment> {
  const database = await createTestDatabase();
  const importEnvironment = await createImportTestEnvironment();
  const redis = createTestRedisNamespace();
  return {
    env: {
      ...importEnvironment.env,
      ADMIN_OAUTH_ISSUER: importEnvironment.env.IMPORT_OAUTH_ISSUER,
      ADMIN_OAUTH_AUDIENCE: 'broker-platform-admin',
      ADMIN_OAUTH_JWKS_URL: importEnvironment.authServer.jwksUrl,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      IMPORT_QUEUE_PREFIX: redis.prefix,
      API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CALC_JWT_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      LOG_LEVEL: 'info',
      ...overrides,
    },
    importToken: (brokerNumber = 'V1000', tenant = 'demo') =>
      importEnvironment.authServer.token({ claims: { broker_id: brokerNumber, tenant } }),
    async cleanup() {
      await database.drop();
      await importEnvironment.cleanup();
      await redis.clear();
    },
  };
}
