import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { findFreePort } from '@broker/local-services';
import type { ImportTestEnvironment } from '@broker/testing';

const WORKER_ENTRY = path.resolve(__dirname, '../dist/worker.js');

export function assertWorkerBuilt(): void {
  if (!existsSync(WORKER_ENTRY)) throw new Error(`${WORKER_ENTRY} is missing: run pnpm build first`);
}

/**
 * The worker as it runs in production: its own process from the built entry point, on a free port, with `env`;
 * its output goes to `output` when given. With `untilLive`, it resolves once the worker answers its liveness
 * probe, so its boot (connecting, checking the schema) is over: a test that kills the worker's statements must
 * not kill a boot statement, which ends the process as a failed boot would in production.
 */
export async function spawnWorker(
  env: Record<string, string>,
  output?: (text: string) => void,
  { untilLive = false } = {},
): Promise<ChildProcess> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [WORKER_ENTRY], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: output ? ['ignore', 'pipe', 'pipe'] : 'ignore',
  });
  child.stdout?.on('data', (chunk: Buffer) => output?.(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output?.(chunk.toString()));
  if (untilLive) await waitUntilLive(child, port);
  return child;
}

async function waitUntilLive(child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The worker exited with ${child.exitCode} during its boot`);
    const live = await fetch(`http://127.0.0.1:${port}/health/live`).then(
      (response) => response.ok,
      () => false,
    );
    if (live) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The worker did not answer /health/live within 60 s');
}

/** Uploads a GDV `file` for insurer 9999 as the fixture's broker; the process id. */
export async function uploadGdv(
  api: INestApplication,
  environment: ImportTestEnvironment,
  file: string,
): Promise<string> {
  const response = await request(api.getHttpServer() as App)
    .post('/api/v1/import')
    .set('Authorization', `Bearer ${await environment.authServer.token()}`)
    .field('companies[0]', '9999')
    .attach('file', readFileSync(file), 'bestand.gdv')
    .expect(200);
  return (response.body as { process_id: string }).process_id;
}
