import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LocalServices } from '@broker/local-services';

/** Secrets the suite needs that have no safe default. Generated once per checkout, never committed. */
const SECRET_GENERATORS: Record<string, () => string> = {
  API_KEY_ENCRYPTION_KEY: () => randomBytes(32).toString('base64'),
};

/**
 * Development values for the secret variables, kept in `<stateDir>/dev-secrets.json` (git-ignored, mode 600)
 * so `pnpm db:seed` and `pnpm start` encrypt and decrypt with the same key across runs.
 */
function developmentSecrets(stateDir: string): Record<string, string> {
  const file = path.join(stateDir, 'dev-secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const missing = Object.keys(SECRET_GENERATORS).filter((name) => !stored[name]);
  if (missing.length === 0) return stored;
  for (const name of missing) stored[name] = SECRET_GENERATORS[name]?.() ?? '';
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  return stored;
}

/**
 * The environment the development CLIs hand to their children: the caller's, the resolved service URLs,
 * and development secrets where the caller did not set them.
 */
export function developmentEnvironment(services: LocalServices, stateDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
  };
  const secrets = developmentSecrets(stateDir);
  const unset = Object.fromEntries(Object.entries(secrets).filter(([name]) => !env[name]));
  return { ...env, ...unset };
}
