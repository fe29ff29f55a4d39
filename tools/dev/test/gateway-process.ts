import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@broker/local-services';
import { ensureDebianPackage, waitFor } from '@broker/testing';
import { type GatewaySettings, renderGatewayConfig } from '../src/gateway-config.js';
import type { RunningProcess } from './run-cli.js';

/** Whether nginx is here (installed by the test when it can be); gateway tests are skipped without it. */
export function nginxInstalled(suite: string): boolean {
  const installed = ensureDebianPackage('nginx-light', () => spawnSync('nginx', ['-v']).status === 0);
  if (!installed)
    process.stderr.write(
      `${suite}: SKIPPED, nginx is missing and could not be installed (needs root and apt)\n`,
    );
  return installed;
}

export const GATEWAY_HOSTS = {
  import: 'import.localhost',
  calc: 'calc.localhost',
  broker: 'broker.localhost',
};

export interface RunningGateway {
  port: number;
  url: string;
  /** Its pid file, temporary files and access log (`access.log`). */
  stateDir: string;
  /** What nginx wrote to stderr. */
  output(): string;
  stop(): void;
}

/** nginx with the deployment's template (deploy/gateway) in front of the running services. */
export async function startGateway(
  upstreams: Record<'import' | 'calc' | 'broker', RunningProcess>,
  limits: Pick<
    GatewaySettings,
    'GATEWAY_RATE_PER_SECOND' | 'GATEWAY_RATE_BURST' | 'GATEWAY_MAX_BODY_BYTES' | 'GATEWAY_MAX_UPLOAD_BYTES'
  >,
): Promise<RunningGateway> {
  const stateDir = mkdtempSync(join(tmpdir(), 'gateway-'));
  // nginx's workers (nobody, when the tests run as root) write request bodies of more than 16 KiB below it.
  chmodSync(stateDir, 0o755);
  const port = await findFreePort();
  const upstream = (service: RunningProcess) => new URL(service.baseUrl).host;
  writeFileSync(
    join(stateDir, 'nginx.conf'),
    renderGatewayConfig({
      ...limits,
      GATEWAY_PORT: String(port),
      GATEWAY_STATE_DIR: stateDir,
      GATEWAY_ACCESS_LOG: join(stateDir, 'access.log'),
      IMPORT_UPSTREAM: upstream(upstreams.import),
      CALC_UPSTREAM: upstream(upstreams.calc),
      BROKER_UPSTREAM: upstream(upstreams.broker),
      IMPORT_HOST: GATEWAY_HOSTS.import,
      CALC_HOST: GATEWAY_HOSTS.calc,
      BROKER_HOST: GATEWAY_HOSTS.broker,
    }),
  );
  let output = '';
  const nginx: ChildProcess = spawn(
    'nginx',
    ['-p', stateDir, '-c', join(stateDir, 'nginx.conf'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  nginx.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => (await fetch(`${url}/gateway/health`).catch(() => undefined))?.status === 200 || undefined,
    15_000,
    () => output,
  );
  return {
    port,
    url,
    stateDir,
    output: () => output,
    stop() {
      nginx.kill('SIGTERM');
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
