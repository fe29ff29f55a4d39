import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { findFreePort } from '@broker/local-services';

export type ServiceProcess = ChildProcess & { port: number };

/**
 * Starts a built Node entry point (with `nodeArguments` for Node itself) as a child process on a free port and waits
 * until `readyPath` answers 2xx.
 * `output: 'ignore'` keeps the child's request logs out of the bench's own output (they are still written).
 */
export async function startServiceProcess(
  entry: string,
  env: NodeJS.ProcessEnv,
  settings: { readyPath?: string; output?: 'inherit' | 'ignore'; nodeArguments?: string[] } = {},
): Promise<ServiceProcess> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [...(settings.nodeArguments ?? []), entry], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', settings.output ?? 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${port}${settings.readyPath ?? '/health/ready'}`).catch(
      () => undefined,
    );
    if (ready?.ok) return Object.assign(child, { port });
    if (child.exitCode !== null) break;
    await delay(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not become ready`);
}
