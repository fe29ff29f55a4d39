import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@broker/local-services';
import { waitFor } from '@broker/testing';
import {
  ensureNginx,
  type GatewayLimits,
  LOCAL_GATEWAY_HOSTS,
  writeLocalGatewayConfig,
} from '../src/local-gateway.js';
import {
  ADMIN_MAX_BODY_BYTES,
  adminAllowedGeo,
  LOCAL_ADMIN_ALLOWED_CIDRS,
  traceSampling,
} from '../src/gateway-config.js';
import type { RunningProcess } from './run-cli.js';

/** Whether nginx is here (installed by the test when it can be); gateway tests are skipped without it. */
export function nginxInstalled(suite: string): boolean {
  const installed = ensureNginx();
  if (!installed)
    process.stderr.write(
      `${suite}: SKIPPED, nginx is missing and could not be installed (needs root and apt)\n`,
    );
  return installed;
}

export const GATEWAY_HOSTS = LOCAL_GATEWAY_HOSTS;

export interface RunningGateway {
  port: number;
  url: string;
  /** Its pid file, temporary files and access log (`access.log`). */
  stateDir: string;
  /** What nginx wrote to stderr. */
  output(): string;
  stop(): void;
}

type DefaultedLimits = 'GATEWAY_MAX_ADMIN_BODY_BYTES' | 'ADMIN_ALLOWED_GEO' | 'GATEWAY_TRACE_SAMPLING';

/**
 * nginx with the deployment's template (deploy/gateway) in front of the running services; the administration's
 * limits are the deployment's defaults (every address) and every trace it starts is sampled, unless given.
 */
export async function startGateway(
  upstreams: Record<'import' | 'calc' | 'broker' | 'admin', RunningProcess>,
  limits: Omit<GatewayLimits, DefaultedLimits> & Partial<Pick<GatewayLimits, DefaultedLimits>>,
  /** Where it listens (a free port unless given: a test that must name the address before the gateway starts). */
  port?: number,
  /** The development login provider's `host:port`, for the development token endpoint as `pnpm start` has it. */
  loginProvider?: string,
): Promise<RunningGateway> {
  const stateDir = mkdtempSync(join(tmpdir(), 'gateway-'));
  port ??= await findFreePort();
  const upstream = (service: RunningProcess) => new URL(service.baseUrl).host;
  const args = writeLocalGatewayConfig(
    stateDir,
    port,
    {
      import: upstream(upstreams.import),
      calc: upstream(upstreams.calc),
      broker: upstream(upstreams.broker),
      admin: upstream(upstreams.admin),
    },
    {
      GATEWAY_MAX_ADMIN_BODY_BYTES: String(ADMIN_MAX_BODY_BYTES),
      ADMIN_ALLOWED_GEO: adminAllowedGeo(LOCAL_ADMIN_ALLOWED_CIDRS),
      GATEWAY_TRACE_SAMPLING: traceSampling(),
      ...limits,
    },
    loginProvider,
  );
  let output = '';
  const nginx: ChildProcess = spawn('nginx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A gateway in front of the import service alone (the upstream of every area): for tests of area A. */
export function startImportGateway(api: RunningProcess, maxUploadBytes: number): Promise<RunningGateway> {
  return startGateway(
    { import: api, calc: api, broker: api, admin: api },
    {
      GATEWAY_RATE_PER_SECOND: '50',
      GATEWAY_RATE_BURST: '100',
      GATEWAY_MAX_BODY_BYTES: String(1024 * 1024),
      GATEWAY_MAX_UPLOAD_BYTES: String(maxUploadBytes),
    },
  );
}
