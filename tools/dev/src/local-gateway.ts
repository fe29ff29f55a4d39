import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDebianPackage } from '@broker/testing';
import { renderGatewayConfig, UPLOAD_FRAMING_BYTES } from './gateway-config.js';

/** The gateway of `pnpm start`: nginx with the deployment's template (deploy/gateway) in front of the suite. */
export interface LocalGateway {
  port: number;
  command: string;
  args: string[];
}

const DEFAULT_PORT = 8080;
/** IMPORT_MAX_UPLOAD_BYTES's default; the gateway lets uploads of that size and their form through. */
const DEFAULT_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

const nginxRuns = () => spawnSync('nginx', ['-v']).status === 0;

/**
 * The gateway's command, its configuration written to `<stateDir>/gateway`, when nginx is installed or can be
 * (apt-get as root, as redis-server is); else why not.
 */
export function planLocalGateway(
  upstreamPorts: Record<'import' | 'calc' | 'broker', number>,
  stateDir: string,
): LocalGateway | { missing: string } {
  if (!ensureDebianPackage('nginx-light', nginxRuns))
    return { missing: 'nginx is not installed (apt-get install nginx-light as root starts it next time)' };
  const port = Number(process.env.GATEWAY_PORT || DEFAULT_PORT);
  const dir = path.join(stateDir, 'gateway');
  mkdirSync(dir, { recursive: true });
  // nginx's workers (nobody, when started as root) write request bodies below it.
  chmodSync(dir, 0o755);
  const maxUpload = Number(process.env.IMPORT_MAX_UPLOAD_BYTES || DEFAULT_MAX_UPLOAD_BYTES);
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    renderGatewayConfig({
      GATEWAY_PORT: String(port),
      GATEWAY_STATE_DIR: dir,
      GATEWAY_ACCESS_LOG: path.join(dir, 'access.log'),
      GATEWAY_RATE_PER_SECOND: '50',
      GATEWAY_RATE_BURST: '100',
      GATEWAY_MAX_BODY_BYTES: String(10 * 1024 * 1024),
      GATEWAY_MAX_UPLOAD_BYTES: String(maxUpload + UPLOAD_FRAMING_BYTES),
      IMPORT_UPSTREAM: `127.0.0.1:${upstreamPorts.import}`,
      CALC_UPSTREAM: `127.0.0.1:${upstreamPorts.calc}`,
      BROKER_UPSTREAM: `127.0.0.1:${upstreamPorts.broker}`,
      IMPORT_HOST: 'import.localhost',
      CALC_HOST: 'calc.localhost',
      BROKER_HOST: 'broker.localhost',
    }),
  );
  return {
    port,
    command: 'nginx',
    args: ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
  };
}
