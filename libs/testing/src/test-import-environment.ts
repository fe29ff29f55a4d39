import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startTestAuthorizationServer,
  TEST_OAUTH_AUDIENCE,
  TEST_OAUTH_ISSUER,
  type TestAuthorizationServer,
} from './test-authorization-server.js';

export interface ImportTestEnvironment {
  /** The import service's own variables: OAuth against the test authorization server, a private storage dir. */
  env: Record<string, string>;
  authServer: TestAuthorizationServer;
  storageDir: string;
  cleanup(): Promise<void>;
}

export async function createImportTestEnvironment(): Promise<ImportTestEnvironment> {
  const authServer = await startTestAuthorizationServer();
  const storageDir = mkdtempSync(path.join(os.tmpdir(), 'bp-import-files-'));
  return {
    env: {
      IMPORT_OAUTH_ISSUER: TEST_OAUTH_ISSUER,
      IMPORT_OAUTH_AUDIENCE: TEST_OAUTH_AUDIENCE,
      IMPORT_OAUTH_JWKS_URL: authServer.jwksUrl,
      IMPORT_STORAGE_DIR: storageDir,
      IMPORT_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    },
    authServer,
    storageDir,
    cleanup: async () => {
      await authServer.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/**
 * The variables of an import API and worker on a test database and Redis namespace, with the sweeper, idle and
 * lock times shortened to a second or less so resumed and killed work shows within a test.
 */
export function importPipelineTestEnv(
  environment: ImportTestEnvironment,
  databaseUrl: string,
  redis: { url: string; prefix: string },
): Record<string, string> {
  return {
    ...environment.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    IMPORT_QUEUE_PREFIX: redis.prefix,
    IMPORT_SWEEP_INTERVAL_MS: '200',
    IMPORT_STAGE_IDLE_MS: '1000',
    IMPORT_STAGE_LOCK_MS: '1000',
    LOG_LEVEL: 'silent',
  };
}
