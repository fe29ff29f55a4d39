import { openAsBlob, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Client, Pool } from 'pg';
import { stopChild } from '@broker/local-services';
import { serviceEntry } from './bench-build.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';

/** Running imports in the benches: the built import API and worker, an upload, and waiting for the end. */

const API_ENTRY = serviceEntry('apps/import-service/dist/main.js');
const WORKER_ENTRY = serviceEntry('apps/import-service/dist/worker.js');
const IMPORT_TIMEOUT_MS = 30 * 60_000;

export interface ImportServices {
  api: ServiceProcess;
  worker: ServiceProcess;
  stop(): Promise<void>;
}

/** The import API and one worker process on `env` (database, Redis namespace, OAuth settings). */
export async function startImportServices(env: NodeJS.ProcessEnv): Promise<ImportServices> {
  const api = await startServiceProcess(API_ENTRY, env);
  const worker = await startServiceProcess(WORKER_ENTRY, env).catch(async (error: unknown) => {
    await stopChild(api, 'SIGTERM', 'SIGKILL', 10_000);
    throw error;
  });
  return {
    api,
    worker,
    stop: async () => {
      await stopChild(worker, 'SIGTERM', 'SIGKILL', 10_000);
      await stopChild(api, 'SIGTERM', 'SIGKILL', 10_000);
    },
  };
}

/** Peak resident set size of a process in MiB (Linux: VmHWM), or null elsewhere. */
export function peakRssMiB(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kib ? Math.round(Number(kib) / 1024) : null;
  } catch {
    return null;
  }
}

/** Uploads a GDV file for company 9999 with the token's tenant and broker; the process id. */
export async function uploadGdv(apiPort: number, file: string, token: string): Promise<string> {
  const form = new FormData();
  form.append('companies[0]', '9999');
  form.append('file', await openAsBlob(file), 'bestand.gdv');
  const response = await fetch(`http://127.0.0.1:${apiPort}/api/v1/import`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  const processId = response.ok ? (JSON.parse(text) as { process_id?: string }).process_id : undefined;
  if (!processId) throw new Error(`upload refused: ${response.status} ${text.slice(0, 500)}`);
  return processId;
}

/** Waits until the process is `processed`; throws when it failed or took longer than 30 minutes. */
export async function waitForProcessed(db: Client | Pool, processId: string): Promise<void> {
  const deadline = Date.now() + IMPORT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ status: string; failure_reason: string | null }>(
      'SELECT status, failure_reason FROM "import".import_process WHERE id = $1',
      [processId],
    );
    const status = rows[0]?.status;
    if (status === 'processed') return;
    if (status === 'failed') throw new Error(`import failed: ${rows[0]?.failure_reason}`);
    await delay(50);
  }
  throw new Error('import did not finish in time');
}

/** A status of the process and the wall-clock times (ms) from the status before it to it. */
export interface StageWindow {
  status: string;
  from: number;
  to: number;
}

/** Each status the process reached after its first, with the time since the previous one. */
export async function stageWindows(db: Client | Pool, processId: string): Promise<StageWindow[]> {
  const { rows } = await db.query<{ status: string; changed_ms: number }>(
    `SELECT status, (extract(epoch FROM changed_at) * 1000)::float8 AS changed_ms
       FROM "import".import_status_change WHERE process_id = $1 ORDER BY id`,
    [processId],
  );
  return rows
    .slice(1)
    .map((row, index) => ({ status: row.status, from: rows[index].changed_ms, to: row.changed_ms }));
}

/** Seconds from each status of the process to the next, by the later status. */
export async function stageSeconds(db: Client | Pool, processId: string): Promise<Record<string, number>> {
  return Object.fromEntries(
    (await stageWindows(db, processId)).map((window) => [
      window.status,
      Math.round((window.to - window.from) / 10) / 100,
    ]),
  );
}
