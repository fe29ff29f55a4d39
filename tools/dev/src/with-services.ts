import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { findWorkspaceRoot, resolveServices } from '@broker/local-services';
import { developmentEnvironment } from './dev-environment.js';

const USAGE = 'usage: node tools/dev/dist/with-services.js -- <command> [args...]';
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function log(line: string): void {
  // stderr keeps the command's stdout clean for pipes.
  process.stderr.write(`${line}\n`);
}

function commandLine(argv: string[]): string[] {
  const command = argv[0] === '--' ? argv.slice(1) : argv;
  if (command.length === 0) throw new Error(USAGE);
  return command;
}

interface SignalForwarder {
  attach(child: ChildProcess): void;
  received(): boolean;
}

/** Signals that arrive before the command runs are remembered; later ones are passed on to it. */
function signalForwarder(): SignalForwarder {
  let child: ChildProcess | undefined;
  let received = false;
  for (const signal of FORWARDED_SIGNALS) {
    process.on(signal, () => {
      received = true;
      child?.kill(signal);
    });
  }
  return { attach: (started) => (child = started), received: () => received };
}

function runCommand(command: string[], env: NodeJS.ProcessEnv, forwarder: SignalForwarder): Promise<number> {
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, args, { stdio: 'inherit', shell: false, env });
  forwarder.attach(child);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      log(`with-services: cannot run ${program}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  const forwarder = signalForwarder();
  const command = commandLine(process.argv.slice(2));
  const stateDir = path.join(findWorkspaceRoot(__dirname), '.local');
  const services = await resolveServices({ stateDir, env: process.env, log });
  try {
    return forwarder.received()
      ? 1
      : await runCommand(command, developmentEnvironment(services, stateDir), forwarder);
  } finally {
    await services.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`with-services: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
