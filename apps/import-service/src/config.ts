import { baseEnvShape, env, loadConfig } from '@broker/config';

/** The API and the worker read the same variables; each process uses its own PORT. */
export const importEnvShape = { ...baseEnvShape, PORT: env.port(3001), REDIS_URL: env.redisUrl() };

export type ImportConfig = ReturnType<typeof loadImportConfig>;

export function loadImportConfig() {
  return loadConfig(importEnvShape);
}
