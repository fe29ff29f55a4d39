import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export interface OsUser {
  uid: number;
  gid: number;
}

/** stop() of a server this process did not start. */
export function stopNothing(): Promise<void> {
  return Promise.resolve();
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** A TCP port that was free on 127.0.0.1 a moment ago (bound to port 0, then released). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not pick a free TCP port'))));
    });
  });
}

export function findOnPath(command: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export function succeeds(command: string, args: string[], user?: OsUser): boolean {
  return spawnSync(command, args, { stdio: 'ignore', ...user }).status === 0;
}

/** True while a process with this id exists (EPERM: it exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts a server with its output appended to `logFile`, in its own process group: a Ctrl+C in the terminal
 * then reaches our process only, which stops the server after its clients. Unreferenced, so a forgotten stop()
 * does not keep the caller alive; callers stop it on exit (see stopOnExit).
 */
export function spawnLogged(command: string, args: string[], logFile: string, user?: OsUser): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    const child = spawn(command, args, { stdio: ['ignore', log, log], detached: true, ...user });
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

export function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (hasExited(child) || child.pid === undefined) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Resolves with the exit code; rejects when the program could not be run at all. */
export function exitCodeOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

/** Polls `isReady` until it says yes; fails when the server exits first or the time runs out. */
export async function waitUntilReady(
  child: ChildProcess,
  isReady: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (spawnError) throw spawnError;
    if (hasExited(child)) throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    if (await isReady()) return;
    await delay(25);
  }
  child.kill('SIGKILL');
  throw new Error(`not ready within ${timeoutMs / 1000} s`);
}

/** Sends `signal`, and `lastResort` when the process is still there after `timeoutMs`. */
export async function stopChild(
  child: ChildProcess,
  signal: NodeJS.Signals,
  lastResort: NodeJS.Signals,
  timeoutMs: number,
): Promise<void> {
  if (hasExited(child)) return;
  const exited = exitOf(child);
  child.kill(signal);
  const timer = setTimeout(() => child.kill(lastResort), timeoutMs);
  await exited.finally(() => clearTimeout(timer));
}

/** Registers a handler that signals the server when our process exits; returns its removal. */
export function stopOnExit(child: ChildProcess, signal: NodeJS.Signals): () => void {
  const handler = () => {
    if (!hasExited(child)) child.kill(signal);
  };
  process.on('exit', handler);
  return () => process.removeListener('exit', handler);
}

async function logTail(logFile: string, lines = 20): Promise<string> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** An Error saying why a server did not start, with the end of its log (the server's own words). */
export async function startFailure(server: string, logFile: string, reason: unknown): Promise<Error> {
  const why = reason instanceof Error ? reason.message : String(reason);
  const tail = await logTail(logFile);
  return new Error(`${server} did not start: ${why}\n--- last lines of ${logFile} ---\n${tail || '(empty)'}`);
}
