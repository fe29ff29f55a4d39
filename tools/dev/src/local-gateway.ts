import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDebianPackage } from '@broker/testing';
import { DEV_TOKEN_PATH } from './dev-environment.js';
import {
  ADMIN_MAX_BODY_BYTES,
  adminAllowedGeo,
  LOCAL_ADMIN_ALLOWED_CIDRS,
  type GatewaySettings,
  renderGatewayConfig,
  traceSampling,
  UPLOAD_FRAMING_BYTES,
} from './gateway-config.js';

/** The host names of the areas on a gateway of this machine (one `server` per area). */
export const LOCAL_GATEWAY_HOSTS = {
  import: 'import.localhost',
  calc: 'calc.localhost',
  broker: 'broker.localhost',
};

let nginxPresent: boolean | undefined;

/** Whether nginx is here, installed (apt-get as root, as redis-server is) when it can be; looked for once. */
export function ensureNginx(): boolean {
  nginxPresent ??= ensureDebianPackage('nginx-light', () => spawnSync('nginx', ['-v']).status === 0);
  return nginxPresent;
}

export type GatewayLimits = Pick<
  GatewaySettings,
  | 'GATEWAY_RATE_PER_SECOND'
  | 'GATEWAY_RATE_BURST'
  | 'GATEWAY_MAX_BODY_BYTES'
  | 'GATEWAY_MAX_UPLOAD_BYTES'
  | 'GATEWAY_MAX_ADMIN_BODY_BYTES'
  | 'GATEWAY_TRACE_SAMPLING'
  | 'ADMIN_ALLOWED_GEO'
>;

/** The areas a gateway routes to, each by its `host:port`. */
export type GatewayUpstreams = Record<'import' | 'calc' | 'broker' | 'admin', string>;

/** Where the deployment's template has room for the locations of development. */
const DEVELOPMENT_LOCATIONS = /^ *# DEVELOPMENT LOCATIONS .*$/m;

/**
 * The development token endpoint at DEV_TOKEN_PATH: the token endpoint of the development login provider at
 * `loginProvider` (`host:port`), so a portal in development gets area A's tokens through the gateway it calls.
 */
function developmentLocations(loginProvider: string | undefined): string {
  if (!loginProvider) return '';
  // Its demo secrets are published: only this machine may ask (nginx listens on every interface).
  return `    location = ${DEV_TOKEN_PATH} { allow 127.0.0.1; allow ::1; deny all; proxy_pass http://${loginProvider}/token; }`;
}

/**
 * A gateway of this machine: the deployment's template (deploy/gateway) rendered into `stateDir` for the areas'
 * `host:port`s, with the development token endpoint when a `loginProvider` (`host:port`) is given; answers the
 * arguments that run nginx with it in the foreground.
 */
export function writeLocalGatewayConfig(
  stateDir: string,
  port: number,
  upstreams: GatewayUpstreams,
  limits: GatewayLimits,
  loginProvider?: string,
): string[] {
  mkdirSync(stateDir, { recursive: true });
  // nginx's workers (nobody, when started as root) write request bodies of more than 16 KiB below it.
  chmodSync(stateDir, 0o755);
  const config = path.join(stateDir, 'nginx.conf');
  writeFileSync(
    config,
    renderGatewayConfig({
      ...limits,
      GATEWAY_PORT: String(port),
      GATEWAY_STATE_DIR: stateDir,
      GATEWAY_ACCESS_LOG: accessLogOf(stateDir),
      IMPORT_UPSTREAM: upstreams.import,
      CALC_UPSTREAM: upstreams.calc,
      BROKER_UPSTREAM: upstreams.broker,
      ADMIN_UPSTREAM: upstreams.admin,
      IMPORT_HOST: LOCAL_GATEWAY_HOSTS.import,
      CALC_HOST: LOCAL_GATEWAY_HOSTS.calc,
      BROKER_HOST: LOCAL_GATEWAY_HOSTS.broker,
    }).replace(DEVELOPMENT_LOCATIONS, developmentLocations(loginProvider)),
  );
  return ['-p', stateDir, '-c', config, '-g', 'daemon off;'];
}

/** The gateway of `pnpm start`: its port and nginx's arguments. */
export interface LocalGateway {
  port: number;
  args: string[];
  /** Its access log (JSON lines); nginx's own errors go to its standard error. */
  accessLog: string;
}

/** Where the gateway whose state is in `stateDir` writes its access log. */
function accessLogOf(stateDir: string): string {
  return path.join(stateDir, 'access.log');
}

const DEFAULT_PORT = 8080;
/** IMPORT_MAX_UPLOAD_BYTES's default; the gateway lets uploads of that size and their form through. */
const DEFAULT_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

/** The port of `pnpm start`'s gateway: GATEWAY_PORT, else 8080. */
export const localGatewayPort = (): number => Number(process.env.GATEWAY_PORT || DEFAULT_PORT);

/** The gateway of `pnpm start` in `<stateDir>/gateway`, when nginx is installed or can be; else why not. */
export function planLocalGateway(
  upstreamPorts: Record<keyof GatewayUpstreams, number>,
  stateDir: string,
  /** The development login provider's port, for the development token endpoint; none without it. */
  loginProviderPort?: number,
): LocalGateway | { missing: string } {
  if (!ensureNginx())
    return { missing: 'nginx is not installed (apt-get install nginx-light as root starts it next time)' };
  const port = localGatewayPort();
  const maxUpload = Number(process.env.IMPORT_MAX_UPLOAD_BYTES || DEFAULT_MAX_UPLOAD_BYTES);
  const local = (servicePort: number) => `127.0.0.1:${servicePort}`;
  const gatewayDir = path.join(stateDir, 'gateway');
  const args = writeLocalGatewayConfig(
    gatewayDir,
    port,
    {
      import: local(upstreamPorts.import),
      calc: local(upstreamPorts.calc),
      broker: local(upstreamPorts.broker),
      admin: local(upstreamPorts.admin),
    },
    {
      GATEWAY_RATE_PER_SECOND: '50',
      GATEWAY_RATE_BURST: '100',
      GATEWAY_MAX_BODY_BYTES: String(10 * 1024 * 1024),
      GATEWAY_MAX_UPLOAD_BYTES: String(maxUpload + UPLOAD_FRAMING_BYTES),
      GATEWAY_MAX_ADMIN_BODY_BYTES: String(
        Number(process.env.ADMIN_MASTER_DATA_MAX_BYTES || ADMIN_MAX_BODY_BYTES),
      ),
      ADMIN_ALLOWED_GEO: adminAllowedGeo(process.env.ADMIN_ALLOWED_CIDRS || LOCAL_ADMIN_ALLOWED_CIDRS),
      GATEWAY_TRACE_SAMPLING: traceSampling(
        process.env.OTEL_TRACES_SAMPLER,
        process.env.OTEL_TRACES_SAMPLER_ARG,
      ),
    },
    loginProviderPort === undefined ? undefined : local(loginProviderPort),
  );
  return { port, args, accessLog: accessLogOf(gatewayDir) };
}
