import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { findWorkspaceRoot, type LocalServices, resolveServices, stopChild } from '@broker/local-services';
import { portOf, suite, type SuiteProcess } from './suite.js';
import {
  DEV_ADMIN_OAUTH_ISSUER,
  DEV_LOGIN_PORT,
  DEV_OAUTH_ISSUER,
  DEV_TOKEN_PATH,
  developmentEnvironment,
  developmentSecrets,
} from './dev-environment.js';
import { DEV_CONSOLE_PEOPLE, startDevLogin } from './dev-login.js';
import { DevMailbox } from './dev-mailbox.js';
import { ensureNginx, localGatewayPort, planLocalGateway } from './local-gateway.js';
import { DEMO_IMPORT_CLIENTS } from './seed/demo-data.js';

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const root = findWorkspaceRoot(__dirname);

interface Launch extends SuiteProcess {
  readyUrl: string;
}

function planLaunches(): Launch[] {
  return suite.map((entry) => {
    const port = portOf(entry);
    return { ...entry, port, readyUrl: `http://127.0.0.1:${port}/health/ready` };
  });
}

function assertBuilt(launches: Launch[]): void {
  const missing = launches.filter((launch) => !existsSync(path.join(root, launch.script)));
  if (missing.length === 0) return;
  const scripts = missing.map((launch) => launch.script).join(', ');
  throw new Error(`${scripts} not found: run "pnpm build" first`);
}

/** Where the processes' logs go (JSON lines, one file per process), so the terminal keeps the summary. */
const LOG_DIR = path.join(root, '.local', 'logs');
/** Lines of a process kept in memory, shown when it exits on its own. */
const LAST_LINES = 20;

/**
 * A process's output into its log file. Lines that are no JSON log entry (a crash's stack trace) also go to the
 * terminal, and the last lines are kept for the message when the process exits on its own.
 */
function logLines(stream: Readable, file: NodeJS.WritableStream, name: string, last: string[]): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    file.write(`${line}\n`);
    last.push(line);
    if (last.length > LAST_LINES) last.shift();
    if (!line.startsWith('{')) process.stderr.write(`[${name}] ${line}\n`);
  });
}

/** Owns everything `pnpm start` runs; stop() ends it all and exits the process. */
class Supervisor {
  private readonly children = new Set<ChildProcess>();
  private services: Promise<LocalServices> | undefined;
  private stopping = false;

  constructor() {
    for (const signal of STOP_SIGNALS) process.on(signal, () => void this.stop(0));
    // The apps run in their own process groups: should this process die unexpectedly, do not leave them behind.
    process.on('exit', () => this.children.forEach((child) => child.kill('SIGTERM')));
    this.stopWhenOrphaned();
  }

  /**
   * A launcher in between (npm, pnpm, sh) may die from a signal without passing it on; the suite then
   * has a new parent and stops as if it had received SIGTERM itself.
   */
  private stopWhenOrphaned(): void {
    const launcher = process.ppid;
    setInterval(() => {
      if (process.ppid !== launcher) void this.stop(0, 'the launching process ended');
    }, 500).unref();
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  resolveServices(): Promise<LocalServices> {
    this.services = resolveServices({
      stateDir: path.join(root, '.local'),
      env: process.env,
      log: (line) => console.log(line),
    });
    return this.services;
  }

  /** A setup step (migrate, seed): its output as is; fails unless it exits with 0. */
  async runStep(label: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
    if (this.stopping) return;
    console.log(`${label}...`);
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
    this.children.add(child);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    this.children.delete(child);
    if (code !== 0 && !this.stopping)
      throw new Error(`${label} failed (exit code ${code ?? 'none: killed'})`);
  }

  /** A long-running process: output prefixed with its name; exiting on its own stops the suite. */
  launch(launch: Launch, env: NodeJS.ProcessEnv): void {
    this.launchCommand(launch.name, process.execPath, [launch.script], {
      ...env,
      PORT: String(launch.port),
      ...launch.env,
    });
  }

  launchCommand(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): void {
    if (this.stopping) return;
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group: a Ctrl+C reaches the supervisor only, which then stops each process once, with SIGTERM.
      detached: true,
    });
    this.children.add(child);
    mkdirSync(LOG_DIR, { recursive: true });
    const log = createWriteStream(path.join(LOG_DIR, `${name}.log`), { flags: 'a' });
    const last: string[] = [];
    logLines(child.stdout, log, name, last);
    logLines(child.stderr, log, name, last);
    child.once('exit', (code, signal) => {
      this.children.delete(child);
      void this.stop(
        1,
        `${name} exited on its own (${signal ?? `exit code ${code}`}); stopping the suite. Its last lines:\n` +
          last.join('\n'),
      );
    });
  }

  async stop(code: number, reason?: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (reason) console.error(reason);
    if (this.children.size > 0 || this.services) console.log('Stopping...');
    await Promise.all(
      [...this.children].map((child) => stopChild(child, 'SIGTERM', 'SIGKILL', STOP_TIMEOUT_MS)),
    );
    const services = await this.services?.catch(() => undefined);
    await services?.stop();
    process.exit(code);
  }
}

async function answersReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function waitUntilReady(launches: Launch[], supervisor: Supervisor): Promise<void> {
  const pending = new Set(launches);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (pending.size > 0 && !supervisor.isStopping) {
    for (const launch of [...pending]) if (await answersReady(launch.readyUrl)) pending.delete(launch);
    if (pending.size === 0) return;
    if (Date.now() > deadline) {
      const names = [...pending].map((launch) => `${launch.name} (${launch.readyUrl})`).join(', ');
      throw new Error(`not ready within ${READY_TIMEOUT_MS / 1000} s: ${names}`);
    }
    await delay(500);
  }
}

/** The gateway in front of the suite when nginx is there; a line saying what it serves, or why it is missing. */
async function startGateway(
  launches: Launch[],
  supervisor: Supervisor,
  loginProviderPort: number | undefined,
): Promise<string> {
  const portOfService = (name: string) => launches.find((launch) => launch.name === name)!.port;
  const gateway = planLocalGateway(
    {
      import: portOfService('import-service'),
      calc: portOfService('calc-service'),
      broker: portOfService('broker-service'),
      admin: portOfService('admin-service'),
    },
    path.join(root, '.local'),
    loginProviderPort,
  );
  if ('missing' in gateway) return `Gateway: not started, ${gateway.missing}`;
  supervisor.launchCommand('gateway', 'nginx', gateway.args, process.env);
  const health = `http://127.0.0.1:${gateway.port}/gateway/health`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answersReady(health)) && !supervisor.isStopping) {
    if (Date.now() > deadline) throw new Error(`the gateway did not answer ${health}`);
    await delay(200);
  }
  const logs = `access log ${relativePath(gateway.accessLog)}, its errors in ${relativePath(path.join(LOG_DIR, 'gateway.log'))}`;
  return (
    `Gateway (nginx, deploy/gateway): http://127.0.0.1:${gateway.port}/api/v1/..., /api/..., /service/..., ` +
    `/admin/v1/... (${logs})`
  );
}

/** The development login provider, when it runs: its port and the summary's lines about it. */
interface DevelopmentLogin {
  port?: number;
  lines: string[];
}

/**
 * The development login provider, for the operator console's logins and for area A's development token endpoint,
 * unless the caller configured providers of their own for both. Without nginx the console is reached at the
 * administration service itself.
 */
async function startDevelopmentLogin(env: NodeJS.ProcessEnv, launches: Launch[]): Promise<DevelopmentLogin> {
  const forConsole = env.ADMIN_CONSOLE_OIDC_ISSUER === DEV_ADMIN_OAUTH_ISSUER;
  const forImports = env.IMPORT_OAUTH_ISSUER === DEV_OAUTH_ISSUER;
  if (!forConsole && !forImports)
    return { lines: ['Console and imports: tokens of ADMIN_CONSOLE_OIDC_ISSUER and IMPORT_OAUTH_ISSUER'] };
  if (!ensureNginx()) {
    const admin = launches.find((launch) => launch.name === 'admin-service')!;
    env.ADMIN_CONSOLE_BASE_URL = `http://127.0.0.1:${admin.port}/admin/console`;
  }
  await startDevLogin(String(env.ADMIN_CONSOLE_BASE_URL), developmentSecrets(path.join(root, '.local')));
  const people = DEV_CONSOLE_PEOPLE.map(
    (person) => `${person.username} / ${person.password} (${person.role})`,
  );
  const clients = DEMO_IMPORT_CLIENTS.map((client) => `${client.clientId} / ${client.clientSecret}`);
  const tokenUrl = ensureNginx()
    ? `http://127.0.0.1:${localGatewayPort()}${DEV_TOKEN_PATH}`
    : `${DEV_OAUTH_ISSUER}/token`;
  return {
    port: DEV_LOGIN_PORT,
    lines: [
      ...(forConsole
        ? [
            `Operator console: ${env.ADMIN_CONSOLE_BASE_URL}/ (development login at ${DEV_ADMIN_OAUTH_ISSUER}: ${people.join(', ')})`,
          ]
        : []),
      ...(forImports
        ? [`Development token endpoint (area A, client credentials): ${tokenUrl} (${clients.join(', ')})`]
        : []),
    ],
  };
}

/**
 * Where the links of mails and SMS send customers (the password and signing pages): the gateway, or without nginx
 * the broker service itself, unless the caller set CUSTOMER_BASE_URL. A line for the summary.
 */
function setCustomerBaseUrl(env: NodeJS.ProcessEnv, launches: Launch[]): string {
  if (!env.CUSTOMER_BASE_URL) {
    const broker = launches.find((launch) => launch.name === 'broker-service')!;
    env.CUSTOMER_BASE_URL = `http://127.0.0.1:${ensureNginx() ? localGatewayPort() : broker.port}`;
  }
  return `Customer pages (the links in mails and SMS): ${env.CUSTOMER_BASE_URL}/service/{tenant}/...`;
}

/**
 * The development mailbox for the broker service's mail and SMS, unless the caller named an SMTP server and an SMS
 * gateway of their own. A line for the summary.
 */
async function startMailbox(env: NodeJS.ProcessEnv): Promise<string> {
  if (env.SMTP_URL && env.SMS_GATEWAY_URL) return 'Mail and SMS: sent to SMTP_URL and SMS_GATEWAY_URL';
  const logFile = path.join(LOG_DIR, 'messages.log');
  const mailbox = await DevMailbox.start(logFile);
  env.SMTP_URL ||= mailbox.env.SMTP_URL;
  env.SMS_GATEWAY_URL ||= mailbox.env.SMS_GATEWAY_URL;
  return `Mail and SMS (development mailbox; nothing leaves this machine): ${mailbox.pageUrl} and ${relativePath(logFile)}`;
}

/** A path as the summary shows it: from the directory `pnpm start` ran in. */
function relativePath(target: string): string {
  return path.relative(process.cwd(), target) || '.';
}

function printLinks(launches: Launch[], notes: string): void {
  const width = Math.max(...launches.map((launch) => launch.name.length)) + 2;
  const lines = launches.flatMap((launch) =>
    launch.links.map((link, index) => {
      const label = index === 0 ? launch.name : '';
      return `  ${label.padEnd(width)}http://127.0.0.1:${launch.port}${link}`;
    }),
  );
  const logs = `Logs (JSON lines): ${relativePath(LOG_DIR)}/<process>.log`;
  console.log(
    ['', 'The broker platform is running:', ...lines, '', notes, logs, 'Press Ctrl+C to stop', ''].join('\n'),
  );
}

async function main(supervisor: Supervisor): Promise<void> {
  const launches = planLaunches();
  assertBuilt(launches);
  const services = await supervisor.resolveServices();
  const env = developmentEnvironment(services, path.join(root, '.local'));
  const dbCli = path.join('tools', 'dev', 'dist', 'db-cli.js');
  await supervisor.runStep('Migrating the database', [dbCli, 'migrate'], env);
  await supervisor.runStep('Seeding the demo data', [dbCli, 'seed'], env);
  const login = await startDevelopmentLogin(env, launches);
  const customerLine = setCustomerBaseUrl(env, launches);
  const mailboxLine = await startMailbox(env);
  for (const launch of launches) supervisor.launch(launch, env);
  await waitUntilReady(launches, supervisor);
  const gatewayLine = await startGateway(launches, supervisor, login.port);
  if (!supervisor.isStopping)
    printLinks(launches, [gatewayLine, ...login.lines, customerLine, mailboxLine].join('\n'));
}

const supervisor = new Supervisor();
main(supervisor).catch((error: unknown) =>
  supervisor.stop(1, `start-suite: ${error instanceof Error ? error.message : String(error)}`),
);
