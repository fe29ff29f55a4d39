import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import {
  exitCodeOf,
  findFreePort,
  findOnPath,
  isRoot,
  spawnLogged,
  startFailure,
  stopNothing,
  stopChild,
  stopOnExit,
  succeeds,
  waitUntilReady,
} from './process-tools.js';
import type { ResolveOptions, RestartableService, ServiceHandle } from './types.js';

const LOCAL_PORT = 6379;
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
const NOT_INSTALLED =
  'redis-server is not installed and Redis is not reachable at 127.0.0.1:6379: ' +
  'install it (sudo apt-get install redis-server) or set REDIS_URL';

export function redisUrl(port: number): string {
  return `redis://127.0.0.1:${port}`;
}

/** Whether 127.0.0.1:`port` answers PING with +PONG (RESP over a plain socket). */
export function pingRedis(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const finish = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
    socket.once('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG\r\n'));
    });
  });
}

function mayInstallPackages(): boolean {
  return isRoot() || succeeds('sudo', ['-n', 'true']);
}

async function aptGet(args: string[]): Promise<void> {
  const [command, commandArgs] = isRoot()
    ? ['apt-get', args]
    : ['sudo', ['-n', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const code = await exitCodeOf(spawn(command, commandArgs, { stdio: 'inherit', env }));
  if (code !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit code ${code})`);
}

/** The redis-server binary; installs Debian's package when it is missing and this user may install. */
async function redisServerBinary(log: (line: string) => void): Promise<string> {
  const found = findOnPath('redis-server');
  if (found) return found;
  if (!mayInstallPackages() || !findOnPath('apt-get')) throw new Error(NOT_INSTALLED);
  log(
    'Installing redis-server with apt-get: Redis is not reachable at 127.0.0.1:6379 and REDIS_URL is not set',
  );
  await aptGet(['update']);
  await aptGet(['install', '-y', 'redis-server']);
  const installed = findOnPath('redis-server');
  if (!installed)
    throw new Error('apt-get installed redis-server, yet it is not on PATH: fix PATH or set REDIS_URL');
  return installed;
}

function redisArgs(dir: string, port: number): string[] {
  return [
    ...['--port', String(port), '--bind', '127.0.0.1'],
    ...['--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
  ];
}

/** redis-server on `port` (no persistence) with its working dir and log in `dir`; restartable on the same port. */
async function startRedisServer(
  dir: string,
  port: number,
  log: (line: string) => void,
): Promise<RestartableService> {
  const binary = await redisServerBinary(log);
  await mkdir(dir, { recursive: true });
  const logFile = path.join(dir, 'redis.log');
  let server: ChildProcess | undefined;
  let forgetExitHandler = () => {};
  const service: RestartableService = {
    url: redisUrl(port),
    port,
    async start() {
      server = spawnLogged(binary, redisArgs(dir, port), logFile);
      forgetExitHandler = stopOnExit(server, 'SIGTERM');
      await waitUntilReady(server, () => pingRedis(port, 250), START_TIMEOUT_MS).catch(
        async (error: unknown) => {
          throw await startFailure(`Redis on port ${port}`, logFile, error);
        },
      );
    },
    async stop() {
      forgetExitHandler();
      if (server) await stopChild(server, 'SIGTERM', 'SIGKILL', STOP_TIMEOUT_MS);
    },
  };
  await service.start();
  return service;
}

/** A private redis-server for tests, with its working dir and log (`redis.log`) in `dir`. */
export async function startPrivateRedis(dir: string): Promise<RestartableService> {
  return startRedisServer(dir, await findFreePort(), (line) => process.stderr.write(`${line}\n`));
}

/**
 * Redis for the dev tools: REDIS_URL when set; else the server on 127.0.0.1:6379; else a private redis-server
 * (installed with apt-get first when missing and this user may install).
 */
export async function resolveRedis(options: ResolveOptions): Promise<ServiceHandle> {
  const fromEnv = options.env.REDIS_URL;
  if (fromEnv) return { url: fromEnv, source: 'env', stop: stopNothing };
  const localPort = options.localPort ?? LOCAL_PORT;
  if (await pingRedis(localPort)) return { url: redisUrl(localPort), source: 'local', stop: stopNothing };
  const server = await startRedisServer(
    path.join(options.stateDir, 'redis'),
    await findFreePort(),
    options.log,
  );
  return { url: server.url, source: 'embedded', stop: () => server.stop() };
}
