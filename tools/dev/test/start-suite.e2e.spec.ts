import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { findFreePort } from '@broker/local-services';
import { createEmptyDatabase, type TestDatabase, testRedisUrl, waitFor } from '@broker/testing';
import { nginxInstalled } from './gateway-process.js';
import { REPO_ROOT } from './run-cli.js';

const describeWithNginx = nginxInstalled('start-suite e2e') ? describe : describe.skip;

/** `pnpm start` as a newcomer sees it: a short summary last, the logs in files, and the gateway in front. */
describeWithNginx('pnpm start (the Quick start’s suite)', () => {
  let database: TestDatabase;
  let suite: ChildProcess;
  let output = '';
  let gatewayPort: number;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    const ports = await Promise.all([1, 2, 3, 4, 5, 6].map(() => findFreePort()));
    gatewayPort = ports[4]!;
    suite = spawn(process.execPath, [path.join(REPO_ROOT, 'tools/dev/dist/start-suite.js')], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        IMPORT_PORT: String(ports[0]),
        IMPORT_WORKER_PORT: String(ports[1]),
        CALC_PORT: String(ports[2]),
        BROKER_PORT: String(ports[3]),
        ADMIN_PORT: String(ports[5]),
        GATEWAY_PORT: String(gatewayPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    suite.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    suite.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(
      () => output.includes('Press Ctrl+C to stop') || undefined,
      90_000,
      () => output,
    );
  }, 120_000);

  afterAll(async () => {
    if (suite && suite.exitCode === null) {
      const exited = new Promise((resolve) => suite.once('exit', resolve));
      suite.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
  }, 60_000);

  it('ends its output with the summary, the processes’ JSON logs going to files', () => {
    const summary = output.slice(output.indexOf('The broker platform is running:'));
    expect(summary).toContain('Gateway (nginx, deploy/gateway)');
    expect(summary).toContain('Logs (JSON lines): .local/logs/<process>.log');
    expect(output).not.toMatch(/^\{"level"/m);
  });

  it('serves every area through its gateway, and an unknown path in JSON', async () => {
    const gateway = `http://127.0.0.1:${gatewayPort}`;
    for (const documentPath of [
      '/api/v1/openapi.json',
      '/api/doc/v1/swagger.json',
      '/service/demo/broker/v1/rest/openapi.json',
      '/admin/v1/openapi.json',
    ])
      expect({ documentPath, status: (await fetch(`${gateway}${documentPath}`)).status }).toEqual({
        documentPath,
        status: 200,
      });
    const unknown = await fetch(`${gateway}/nirgendwo`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ name: 'RouteNotFound', status: 404 });
  });
});
