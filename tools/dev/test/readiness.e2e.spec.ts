import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RestartableService, startPrivatePostgres, startPrivateRedis } from '@broker/local-services';
import { createImportTestEnvironment, type ImportTestEnvironment, waitFor } from '@broker/testing';
import { type RunningProcess, startProcess } from './run-cli.js';

/**
 * Readiness follows the dependencies: a private PostgreSQL and Redis of this test are stopped and
 * started again under a running import service (it uses both), which must report it and recover by itself.
 */
describe('GET /health/ready when a dependency goes away and comes back', () => {
  let stateDir: string;
  let postgres: RestartableService;
  let redis: RestartableService;
  let service: RunningProcess;
  let importEnvironment: ImportTestEnvironment;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'bp-readiness-'));
    chmodSync(stateDir, 0o755); // PostgreSQL started by root runs as the postgres user, which must reach its data
    [postgres, redis] = await Promise.all([
      startPrivatePostgres(path.join(stateDir, 'postgres')),
      startPrivateRedis(path.join(stateDir, 'redis')),
    ]);
    importEnvironment = await createImportTestEnvironment();
    service = await startProcess('apps/import-service/dist/main.js', {
      ...importEnvironment.env,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
    });
  }, 60_000);

  afterAll(async () => {
    await service?.terminate();
    await Promise.all([postgres?.stop(), redis?.stop(), importEnvironment?.cleanup()]);
    rmSync(stateDir, { recursive: true, force: true });
  });

  async function readiness(): Promise<{ status: number; failing: string[] }> {
    const response = await fetch(`${service.baseUrl}/health/ready`);
    const body = (await response.json()) as { failing: string[] };
    return { status: response.status, failing: body.failing };
  }

  async function expectReadiness(expected: { status: number; failing: string[] }): Promise<void> {
    await waitFor(
      async () => JSON.stringify(await readiness()) === JSON.stringify(expected) || undefined,
      15_000,
      () => service.output(),
    );
  }

  it('is ready while both dependencies run', async () => {
    expect(await readiness()).toEqual({ status: 200, failing: [] });
  });

  it('answers 503 naming redis while Redis is down, and 200 again after it restarts', async () => {
    await redis.stop();
    await expectReadiness({ status: 503, failing: ['redis'] });
    await redis.start();
    await expectReadiness({ status: 200, failing: [] });
  }, 40_000);

  it('answers 503 naming postgres while PostgreSQL is down, and 200 again after it restarts', async () => {
    await postgres.stop();
    await expectReadiness({ status: 503, failing: ['postgres'] });
    await postgres.start();
    await expectReadiness({ status: 200, failing: [] });
  }, 40_000);

  it('keeps answering liveness throughout', async () => {
    expect((await fetch(`${service.baseUrl}/health/live`)).status).toBe(200);
  });
});
