import { spawn } from 'node:child_process';
import path from 'node:path';
import { findFreePort } from '@broker/local-services';
import { waitFor } from '@broker/testing';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** A variable set to undefined is left out, so a test can remove one from a prepared environment. */
function definedOnly(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built script (relative to the repository root, or absolute) as its own process, with exactly the environment given. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.resolve(REPO_ROOT, script), ...args], {
      env: definedOnly({ PATH: process.env.PATH, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A Nest process starting on a busy machine (a CI run beside other work) can take well over 20 s. */
const PROCESS_START_TIMEOUT_MS = 60_000;

export interface RunningProcess {
  baseUrl: string;
  output(): string;
  /** Stops reading the process's stdout (its pipe fills up, as with a stalled log shipper) until `resume` is called. */
  stallOutput(): { resume(): void };
  /** The exit code once the process has exited, else null. */
  exitCode(): number | null;
  /** Sends SIGTERM and resolves with the exit code. */
  terminate(): Promise<number | null>;
}

/** Starts a built HTTP process (`script` relative to the repository root, or absolute) on a free port; resolves once it listens. */
export async function startProcess(script: string, env: NodeJS.ProcessEnv): Promise<RunningProcess> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [path.resolve(REPO_ROOT, script)], {
    env: definedOnly({ PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': the exit code once the process's output has been read to its end.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const terminate = () => {
    child.kill('SIGTERM');
    return exited;
  };
  try {
    await waitFor(
      async () => (await fetch(`${baseUrl}/health/live`)).ok || undefined,
      PROCESS_START_TIMEOUT_MS,
      () => output,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const stallOutput = () => {
    child.stdout.pause();
    return { resume: () => child.stdout.resume() };
  };
  return { baseUrl, output: () => output, stallOutput, exitCode: () => child.exitCode, terminate };
}

/** Starts several processes at once; if one fails to start, the others are stopped before the error is passed on. */
export async function startProcesses<Name extends string>(
  launches: Record<Name, { script: string; env: NodeJS.ProcessEnv }>,
): Promise<Record<Name, RunningProcess>> {
  const names = Object.keys(launches) as Name[];
  const started = await Promise.allSettled(
    names.map((name) => startProcess(launches[name].script, launches[name].env)),
  );
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    const running = started.filter((result) => result.status === 'fulfilled');
    await Promise.all(running.map((result) => result.value.terminate()));
    throw failure.reason;
  }
  return Object.fromEntries(
    names.map((name, index) => [name, (started[index] as PromiseFulfilledResult<RunningProcess>).value]),
  ) as Record<Name, RunningProcess>;
}

/** The platform's five processes from built output: the four services and the import worker. */
export function startPlatformProcesses(env: NodeJS.ProcessEnv, workerEnv: NodeJS.ProcessEnv = env) {
  return startProcesses({
    import: { script: 'apps/import-service/dist/main.js', env },
    worker: { script: 'apps/import-service/dist/worker.js', env: workerEnv },
    calc: { script: 'apps/calc-service/dist/main.js', env },
    broker: { script: 'apps/broker-service/dist/main.js', env },
    admin: { script: 'apps/admin-service/dist/main.js', env },
  });
}
