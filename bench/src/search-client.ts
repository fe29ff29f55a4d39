import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { svcDigest } from '@broker/auth';
import type { BenchFigure } from './bench-build.js';
import { type ApiClientKey, percentile } from './broker-fixture.js';

/**
 * The client side of the search benches: signed requests to the built broker service, and a fixed number of
 * them in flight with latency percentiles and X-Svc-Total checked for constancy.
 */

/** Who asks: the service's port, an API client and the code of an employee of its broker (the path's `{ma}`). */
export interface Caller {
  port: number;
  apiClient: ApiClientKey;
  employee: string;
}

/** The digest form of the header group, with a fresh nonce. */
export function signedHeaders(apiClient: ApiClientKey): Record<string, string> {
  const nonce = randomBytes(20).toString('hex');
  const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    'X-Svc-Api-Id': apiClient.apiId,
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Nonce': nonce,
    'X-Svc-Digest': svcDigest(nonce, timestamp, apiClient.apiKey),
  };
}

/** An answer: its status, the time from sending to the end of its body, X-Svc-Total (0 when absent), its body. */
export interface RawAnswer {
  status: number;
  milliseconds: number;
  total: number;
  body: string;
}

/**
 * Node's own HTTP client with kept-alive connections: the bench shares the machine's cores with the service and
 * PostgreSQL, and `fetch` took 330-390 µs of CPU per request against 150 µs for this (measured 2026-11-28), CPU
 * that the measured service then lacked.
 */
const agent = new http.Agent({ keepAlive: true });

/** A signed GET of `path` below the employee interface's base; whatever the status, it does not throw. */
export function signedGet(caller: Caller, path: string): Promise<RawAnswer> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port: caller.port,
        path: `/service/demo/employee/v1/rest/${path}`,
        agent,
        headers: signedHeaders(caller.apiClient),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            milliseconds: Number(process.hrtime.bigint() - started) / 1e6,
            total: Number(response.headers['x-svc-total'] ?? 0),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

export const searchPath = (caller: Caller, q: string) =>
  `${caller.employee}/kunden/_search?q=${encodeURIComponent(q)}`;

/** getKunde's path: one customer. */
export const customerPath = (caller: Caller, id: string) => `${caller.employee}/kunden/${id}`;

/** A successful answer with the number of items of its array body. */
export interface Answer {
  milliseconds: number;
  total: number;
  hits: number;
}

export async function searchKunden(caller: Caller, q: string): Promise<Answer> {
  const answer = await signedGet(caller, searchPath(caller, q));
  if (answer.status !== 200) throw new Error(`searchKunden ${q}: ${answer.status} ${answer.body}`);
  return { ...answer, hits: (JSON.parse(answer.body) as unknown[]).length };
}

/** A signed GET that must answer 200. */
export async function getOk(caller: Caller, path: string): Promise<Answer> {
  const answer = await signedGet(caller, path);
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.body}`);
  return { ...answer, hits: 0 };
}

/** For comparison: an authenticated request that does no search (the enumeration of salutations). */
export const salutations = (caller: Caller) => getOk(caller, 'anreden');

/** How many requests in flight, how many first without measuring, how many measured. */
export interface Load {
  concurrency: number;
  warmUp: number;
  requests: number;
}

/** A measured kind's figures for bench:compare, its row named `row` (the kind unless given). */
export function searchFigures(result: KindResult, row = result.kind): BenchFigure[] {
  return [
    { row, metric: 'p95 ms', value: result.p95, better: 'lower' },
    { row, metric: 'requests/s', value: result.perSecond, better: 'higher' },
  ];
}

export interface KindResult {
  kind: string;
  /** X-Svc-Total per query. */
  totalOf: Map<string, number>;
  example: string;
  queries: number;
  totals: string;
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
}

/** X-Svc-Total of each query must not vary and never be below the page. */
function totalKeeper(totals: Map<string, number>) {
  return (q: string, answer: Answer) => {
    const known = totals.get(q);
    if (known !== undefined && known !== answer.total)
      throw new Error(`X-Svc-Total of ${q} changed from ${known} to ${answer.total}`);
    if (answer.hits > answer.total) throw new Error(`${q}: more hits than X-Svc-Total`);
    totals.set(q, answer.total);
  };
}

/** The range of the totals, with their median when they differ. */
function totalsRange(totals: Map<string, number>): string {
  const counts = [...totals.values()].sort((a, b) => a - b);
  return counts[0] === counts[counts.length - 1]
    ? String(counts[0])
    : `${counts[0]}-${counts[counts.length - 1]} (median ${percentile(counts, 0.5)})`;
}

/** `load.requests` calls, `load.concurrency` in flight, cycling through `queries`, after `load.warmUp` unmeasured. */
export async function measure(
  kind: string,
  queries: string[],
  call: (q: string) => Promise<Answer>,
  load: Load,
): Promise<KindResult> {
  const totals = new Map<string, number>();
  const keepTotal = totalKeeper(totals);
  const run = async (requests: number, record: number[] | undefined) => {
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        const q = queries[next % queries.length] ?? '';
        next += 1;
        const answer = await call(q);
        keepTotal(q, answer);
        record?.push(answer.milliseconds);
      }
    };
    await Promise.all(Array.from({ length: load.concurrency }, worker));
  };
  await run(Math.min(load.warmUp, load.requests), undefined);
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  await run(load.requests, latencies);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    kind,
    totalOf: totals,
    example: queries[0] ?? '',
    queries: queries.length,
    totals: totalsRange(totals),
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    perSecond: load.requests / seconds,
  };
}
