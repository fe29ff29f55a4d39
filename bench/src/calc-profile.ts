import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { stopChild } from '@broker/local-services';
import { createTestDatabase } from '@broker/testing';
import { serviceEntry } from './bench-build.js';
import { addCalcUser, CALC_PATH, calcServiceEnv, calculationRequest, loginCalcUser } from './calc-setup.js';
import { startServiceProcess } from './service-process.js';

/**
 * bench/calc-profile: where the calculation service spends its CPU time under bench/calc's never-seen load (every
 * request a body no one sent before, 50 connections): the built service (another commit's with BENCH_SERVICES_ROOT)
 * runs with --cpu-prof for `seconds` of load; the bench prints the functions and the code (package, library, app)
 * that took the largest shares of its samples, and keeps the profile for Chrome's DevTools.
 * `node bench/dist/calc-profile.js [seconds]`.
 */

const CONNECTIONS = 50;
const DEFAULT_SECONDS = 20;
const TOP = 25;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** What code a script is: a package of node_modules, a library or app of the workspace, Node's own, or V8's. */
function codeOf(url: string): string {
  if (!url) return '(V8: program, GC, idle)';
  if (url.startsWith('node:')) return 'node (core)';
  const inModules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  const inWorkspace = /\/((?:apps|libs)\/[^/]+)\//.exec(url);
  return inWorkspace ? inWorkspace[1] : url;
}

/** The largest self-time shares of a .cpuprofile, by function and by code. */
function summarize(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const byFunction = new Map<string, number>();
  const byCode = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)') continue;
    busy += hits;
    const name = `${functionName || '(anonymous)'} ${url ? `${codeOf(url)}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    const code = codeOf(url);
    byCode.set(code, (byCode.get(code) ?? 0) + hits);
  }
  const top = (shares: Map<string, number>) =>
    [...shares]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, hits]) => `  ${((100 * hits) / busy).toFixed(1).padStart(5)} %  ${name}`);
  return [
    `Samples while busy: ${busy}. Self time by code:`,
    ...top(byCode),
    'Self time by function:',
    ...top(byFunction),
  ].join('\n');
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? DEFAULT_SECONDS);
  const database = await createTestDatabase();
  const profiles = mkdtempSync(path.join(os.tmpdir(), 'calc-profile-'));
  try {
    await addCalcUser(database.url);
    const calc = await startServiceProcess(
      serviceEntry('apps/calc-service/dist/main.js'),
      calcServiceEnv(database.url),
      { output: 'ignore', nodeArguments: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] },
    );
    try {
      const headers = {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${await loginCalcUser(calc.port)}`,
      };
      let variant = 1_000_000;
      const result = await autocannon({
        url: `http://127.0.0.1:${calc.port}${CALC_PATH}`,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request: object) => ({
              ...request,
              body: JSON.stringify(calculationRequest(variant++)),
            }),
          },
        ],
      });
      console.log(
        `${Math.round(result.requests.average)} requests/s, p99 ${result.latency.p99} ms, ` +
          `${result.non2xx} non-2xx, ${result.errors} errors (${CONNECTIONS} connections, ${seconds} s)`,
      );
    } finally {
      await stopChild(calc, 'SIGTERM', 'SIGKILL', 10_000);
    }
    const [profile] = readdirSync(profiles).filter((name) => name.endsWith('.cpuprofile'));
    if (!profile) throw new Error(`the service wrote no profile into ${profiles}`);
    console.log(`${summarize(path.join(profiles, profile))}\nProfile: ${path.join(profiles, profile)}`);
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
