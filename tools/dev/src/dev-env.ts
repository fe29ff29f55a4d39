import path from 'node:path';
import { checkoutDatabaseName, findWorkspaceRoot } from '@broker/local-services';
import { developmentDefaults } from './dev-environment.js';

/**
 * `pnpm -s dev:env`: the development environment as shell `export` lines, so one process can run alone as the
 * README shows (`eval "$(pnpm -s dev:env)"`, then `pnpm start:import`): PostgreSQL and Redis on their standard
 * local ports unless DATABASE_URL / REDIS_URL are set, and the development keys, OAuth issuer and storage dir of
 * `pnpm start` (`.local/`, git-ignored). Development only: the keys are this checkout's, never a deployment's.
 */
function main(): void {
  const stateDir = path.join(findWorkspaceRoot(__dirname), '.local');
  const values: Record<string, string> = {
    DATABASE_URL:
      process.env.DATABASE_URL || `postgres://postgres@127.0.0.1:5432/${checkoutDatabaseName(stateDir)}`,
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    ...developmentDefaults(stateDir),
  };
  for (const [name, value] of Object.entries(values)) {
    if (process.env[name]) continue;
    process.stdout.write(`export ${name}=${shellQuoted(value)}\n`);
  }
}

/** Single-quoted for sh (newlines of a PEM included); a quote inside ends, escapes and reopens. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

main();
