import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT, type RunningProcess, startProcess } from './run-cli.js';

/** The README's "Running one process alone": `eval "$(pnpm -s dev:env)"`, then each start:* script. */
describe('pnpm dev:env (one process alone, as the README shows)', () => {
  const running: RunningProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((process) => process.terminate()));
  });

  /** The environment a shell has after evaluating dev:env, starting from the database and Redis only. */
  function evaluatedEnvironment(): NodeJS.ProcessEnv {
    const devEnv = path.join(REPO_ROOT, 'tools/dev/dist/dev-env.js');
    const shell = spawnSync(
      'bash',
      ['-c', `eval "$(node '${devEnv}')" && node -e 'process.stdout.write(JSON.stringify(process.env))'`],
      {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: process.env.DATABASE_URL,
          REDIS_URL: process.env.REDIS_URL,
        },
        encoding: 'utf8',
      },
    );
    expect(shell.status).toBe(0);
    return JSON.parse(shell.stdout) as NodeJS.ProcessEnv;
  }

  it('prints what every process needs beyond DATABASE_URL and REDIS_URL, and each then starts', async () => {
    const env = evaluatedEnvironment();
    for (const name of [
      'API_KEY_ENCRYPTION_KEY',
      'IMPORT_WEBHOOK_ENCRYPTION_KEY',
      'CALC_JWT_PRIVATE_KEY',
      'IMPORT_OAUTH_PUBLIC_KEY',
      'IMPORT_STORAGE_DIR',
    ])
      expect(env[name]).toEqual(expect.any(String));
    expect(env.CALC_JWT_PRIVATE_KEY).toContain('-----BEGIN PRIVATE KEY-----\n');
    for (const script of [
      'apps/import-service/dist/main.js',
      'apps/import-service/dist/worker.js',
      'apps/calc-service/dist/main.js',
      'apps/broker-service/dist/main.js',
    ])
      running.push(await startProcess(script, { ...env, LOG_LEVEL: 'warn' }));
  }, 120_000);
});
