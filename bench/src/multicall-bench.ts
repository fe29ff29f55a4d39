import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { svcOtp } from '@broker/auth';
import { type BenchFigure, recordFigures } from './bench-build.js';
import { BrokerBench, percentile } from './broker-fixture.js';
import { cpuTimeMeter } from './cpu-time.js';

/**
 * bench/multicall: one single GET of the broker service against a multi-call (POST {base_url},
 * multipart/related) of 1, 20 and 100 of the same GET, through HTTP to the built service as a child process.
 * Two GETs, each measured on its own: `/laender` (the static list of 250 countries, 8.6 KiB of JSON) and
 * `/V1000/gesellschaften` (three SQL queries: the visible broker, the list's Last-Modified, the list; two
 * companies by agreement). For each: latency one request at a time over one keep-alive connection, then
 * throughput at a few connections (autocannon). Every answer is checked; results in bench/README.md.
 */

const BASE = '/service/demo/broker/v1/rest';
const API_CLIENT = { apiId: 'bench-api', apiKey: 'bench-api-key-0123456789' };
const CONNECTIONS = 8;
const WARM_UP_SECONDS = 2;
const DEFAULT_SECONDS = 8;
const BOUNDARY = 'bench-boundary-4711';
/** The target: a 20-part batch costs at most this many single calls. */
const TARGET_RATIO = 3;

interface Mix {
  name: string;
  path: string;
  /** How many entries the list must have. */
  accept: (entries: number) => boolean;
}

const MIXES: Mix[] = [
  { name: '`/laender` (static)', path: '/laender', accept: (entries) => entries > 200 },
  {
    name: '`/V1000/gesellschaften` (SQL)',
    path: '/V1000/gesellschaften',
    accept: (entries) => entries === 2,
  },
];

/** A single GET (parts 0), or a multi-call of `parts` GETs; measured one at a time `sequential` times. */
interface Shape {
  label: string;
  parts: number;
  sequential: number;
  throughput: boolean;
}

const SHAPES: Shape[] = [
  { label: 'single GET', parts: 0, sequential: 400, throughput: true },
  { label: 'batch of 1', parts: 1, sequential: 200, throughput: false },
  { label: 'batch of 20', parts: 20, sequential: 100, throughput: true },
  { label: 'batch of 100', parts: 100, sequential: 40, throughput: true },
];

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

// ---------------------------------------------------------------------------------------------------------------
// Requests

/**
 * The OTP form of the header group: one X-Svc-Otp is valid for its 30-second step (and one step either side),
 * and unlike a digest's nonce it may be sent again, so it is computed once a second, not per request.
 */
let otp = { second: -1, value: '' };
function authHeaders(): Record<string, string> {
  const second = Math.floor(Date.now() / 1000);
  if (second !== otp.second) otp = { second, value: svcOtp(API_CLIENT.apiKey, second * 1000) };
  return { 'X-Svc-Api-Id': API_CLIENT.apiId, 'X-Svc-Otp': otp.value };
}

interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function requestOf(mix: Mix, shape: Shape): BenchRequest {
  if (shape.parts === 0) return { method: 'GET', path: `${BASE}${mix.path}`, headers: {} };
  const parts = Array.from(
    { length: shape.parts },
    (_, index) =>
      `--${BOUNDARY}\r\nContent-ID: <part-${index + 1}>\r\nX-Svc-Method: GET\r\nX-Svc-Path: ${mix.path}\r\n\r\n\r\n`,
  );
  return {
    method: 'POST',
    path: BASE,
    headers: { 'Content-Type': `multipart/related; boundary=${BOUNDARY}; start="<part-1>"` },
    body: `${parts.join('')}--${BOUNDARY}--\r\n`,
  };
}

interface Answer {
  milliseconds: number;
  status: number;
  contentType: string;
  body: Buffer;
}

async function send(port: number, request: BenchRequest): Promise<Answer> {
  const started = process.hrtime.bigint();
  const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
    method: request.method,
    headers: { ...request.headers, ...authHeaders() },
    body: request.body,
  });
  const body = Buffer.from(await response.arrayBuffer());
  const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    milliseconds,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Checks

interface AnswerPart {
  headers: Map<string, string>;
  body: Buffer;
}

/** The parts of a multipart answer, strictly: it starts with the boundary and ends with the closing one. */
function answerParts(contentType: string, body: Buffer): AnswerPart[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!/^multipart\/related\s*;/i.test(contentType) || !boundary)
    throw new Error(`not multipart/related with a boundary: ${contentType}`);
  const delimiter = `--${boundary}`;
  if (body.indexOf(delimiter) !== 0) throw new Error('the answer does not start with the boundary');
  const parts: AnswerPart[] = [];
  let at = 0;
  for (;;) {
    const after = at + delimiter.length;
    if (body.toString('latin1', after, after + 2) === '--') break;
    const headerEnd = body.indexOf('\r\n\r\n', after);
    const next = body.indexOf(`\r\n${delimiter}`, headerEnd + 4);
    if (headerEnd < 0 || next < 0) throw new Error(`part ${parts.length + 1} is cut off`);
    const headers = new Map(
      body
        .toString('latin1', after + 2, headerEnd)
        .split('\r\n')
        .map((line): [string, string] => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
    );
    parts.push({ headers, body: body.subarray(headerEnd + 4, next) });
    at = next + 2;
  }
  return parts;
}

/** A single answer 200 with exactly the reference body; a batch 200 with one part per GET, each the same. */
function check(answer: Answer, shape: Shape, reference: Buffer): void {
  const fail = (problem: string) => {
    throw new Error(
      `${shape.label}: ${problem} (status ${answer.status}: ${answer.body.toString().slice(0, 300)})`,
    );
  };
  if (answer.status !== 200) fail('not 200');
  if (shape.parts === 0) {
    if (!answer.body.equals(reference)) fail('the body differs from the first answer');
    return;
  }
  const parts = answerParts(answer.contentType, answer.body);
  if (parts.length !== shape.parts) fail(`${parts.length} parts instead of ${shape.parts}`);
  parts.forEach((part, index) => {
    const status = part.headers.get('x-svc-status');
    if (status !== '200 OK') fail(`part ${index + 1} has X-Svc-Status ${status}`);
    if (part.headers.get('x-svc-request-id') !== `<part-${index + 1}>`)
      fail(`part ${index + 1} out of order`);
    if (!part.body.equals(reference)) fail(`the body of part ${index + 1} differs from the single answer`);
  });
}

/** For autocannon, which hands over the body as text: as many `X-Svc-Status: ` as parts, all `200 OK`. */
function bodyCheck(shape: Shape): (body: string | Buffer | undefined) => boolean {
  if (shape.parts === 0)
    return (body) => typeof body === 'string' && body.startsWith('[{') && body.endsWith('}]');
  const count = (text: string, needle: string) => {
    let found = 0;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) found += 1;
    return found;
  };
  return (body) =>
    typeof body === 'string' &&
    count(body, 'X-Svc-Status: ') === shape.parts &&
    count(body, 'X-Svc-Status: 200 OK\r\n') === shape.parts;
}

// ---------------------------------------------------------------------------------------------------------------
// Measurements

interface LatencyRow {
  mix: Mix;
  shape: Shape;
  mean: number;
  p50: number;
  p99: number;
  bytes: number;
}

/**
 * One request at a time over one keep-alive connection, every answer checked, the shapes of `mix` interleaved
 * (a single GET, then a batch, ...): the machine's speed drifts from minute to minute, and interleaving lets
 * every shape see the same. Each shape is sent `sequential` times, spread evenly over the run, after a tenth as
 * many for warm-up.
 */
async function interleavedLatencies(port: number, mix: Mix, reference: Buffer): Promise<LatencyRow[]> {
  const rounds = Math.max(...SHAPES.map((shape) => shape.sequential));
  const warmUpRounds = Math.ceil(rounds / 10);
  const samples = SHAPES.map(() => [] as number[]);
  const bytes = SHAPES.map(() => 0);
  for (let round = 0; round < warmUpRounds + rounds; round += 1) {
    for (const [index, shape] of SHAPES.entries()) {
      if (round % Math.round(rounds / shape.sequential) !== 0) continue;
      const answer = await send(port, requestOf(mix, shape));
      check(answer, shape, reference);
      if (round >= warmUpRounds) samples[index].push(answer.milliseconds);
      bytes[index] = answer.body.length;
    }
  }
  return SHAPES.map((shape, index) => {
    const milliseconds = samples[index].sort((a, b) => a - b);
    return {
      mix,
      shape,
      mean: milliseconds.reduce((sum, value) => sum + value, 0) / milliseconds.length,
      p50: percentile(milliseconds, 0.5),
      p99: percentile(milliseconds, 0.99),
      bytes: bytes[index],
    };
  });
}

interface ThroughputRow {
  mix: Mix;
  shape: Shape;
  requestsPerSecond: number;
  partsPerSecond: number;
  p50: number;
  p99: number;
}

/** A throughput row's figures for bench:compare. */
function throughputFigures(row: ThroughputRow): BenchFigure[] {
  const name = `${row.mix.name}, ${row.shape.label}`;
  return [
    { row: name, metric: 'requests/s', value: row.requestsPerSecond, better: 'higher' },
    { row: name, metric: 'p99 ms', value: row.p99, better: 'lower' },
  ];
}

/** `CONNECTIONS` connections for `seconds` after a warm-up; any error, non-2xx or failed body check throws. */
async function throughput(port: number, mix: Mix, shape: Shape, seconds: number): Promise<ThroughputRow> {
  const { method, path: requestPath, headers, body } = requestOf(mix, shape);
  const options = {
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    verifyBody: bodyCheck(shape),
    requests: [
      {
        method,
        path: requestPath,
        headers,
        body,
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          headers: { ...request.headers, ...authHeaders() },
        }),
      },
    ],
  };
  // When autocannon stops it drops the batches in flight, but the service runs their remaining parts all the
  // same; waiting as long as the slowest answer took keeps that work out of the next measurement.
  // A warm-up may end before the first batch of 100 parts is answered; a measurement must not.
  const run = async (duration: number, measured: boolean) => {
    const result = await autocannon({ ...options, duration });
    await delay(Math.min(result.latency.max, 10_000) + 200);
    const failed = result.errors + result.timeouts + result.non2xx + result.mismatches;
    if (failed > 0 || (measured && result.requests.total === 0))
      throw new Error(
        `${mix.name}, ${shape.label}: ${result.requests.total} answers, ${result.errors} errors, ` +
          `${result.timeouts} timeouts, ${result.non2xx} non-2xx, ${result.mismatches} failed the body check`,
      );
    return result;
  };
  await run(WARM_UP_SECONDS, false);
  const result = await run(seconds, true);
  const requestsPerSecond = result.requests.total / result.duration;
  return {
    mix,
    shape,
    requestsPerSecond,
    partsPerSecond: requestsPerSecond * Math.max(1, shape.parts),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** Resident set size of a process in MiB (Linux: VmRSS), or null elsewhere. */
function residentMiB(pid: number | undefined): number | null {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib ? Math.round(Number(kib) / 1024) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const times = (value: number) => `${value.toFixed(2)} ×`;

const singleOf = <T extends { mix: Mix; shape: Shape }>(rows: T[], mix: Mix) =>
  rows.find((row) => row.mix === mix && row.shape.parts === 0)!;

/** The latency table, written as soon as it is measured (a later throughput run may still fail). */
function latencyReport(latencies: LatencyRow[]): string[] {
  return [
    `Latency, one request at a time over one keep-alive connection:`,
    '',
    '| GET | request | answer KiB | mean ms | p50 ms | p99 ms | mean / single | p50 / single | mean per GET ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...latencies.map((row) => {
      const base = singleOf(latencies, row.mix);
      return (
        `| ${row.mix.name} | ${row.shape.label} | ${(row.bytes / 1024).toFixed(1)} | ${ms(row.mean)} | ${ms(row.p50)} | ` +
        `${ms(row.p99)} | ${times(row.mean / base.mean)} | ${times(row.p50 / base.p50)} | ` +
        `${ms(row.mean / Math.max(1, row.shape.parts))} |`
      );
    }),
    '',
  ];
}

/** The throughput table and, per GET, the ratios of a batch of 20 against the target. */
function throughputReport(latencies: LatencyRow[], throughputs: ThroughputRow[]): string[] {
  const lines = [
    `Throughput at ${CONNECTIONS} connections (autocannon):`,
    '',
    '| GET | request | requests/s | GETs/s | p50 ms | p99 ms | cost per request / single |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...throughputs.map((row) => {
      const base = singleOf(throughputs, row.mix);
      return (
        `| ${row.mix.name} | ${row.shape.label} | ${whole(row.requestsPerSecond)} | ${whole(row.partsPerSecond)} | ` +
        `${row.p50} | ${row.p99} | ${times(base.requestsPerSecond / row.requestsPerSecond)} |`
      );
    }),
    '',
  ];
  for (const mix of MIXES) {
    const latencyOf = (parts: number) =>
      latencies.find((row) => row.mix === mix && row.shape.parts === parts)!;
    const throughputOf = (parts: number) =>
      throughputs.find((row) => row.mix === mix && row.shape.parts === parts)!;
    const [one, batch1, batch20, batch100] = [0, 1, 20, 100].map(latencyOf);
    const perPart = (batch100.mean - batch20.mean) / 80;
    const ratios = {
      mean: batch20.mean / one.mean,
      p50: batch20.p50 / one.p50,
      cost: throughputOf(0).requestsPerSecond / throughputOf(20).requestsPerSecond,
    };
    const verdict = (ratio: number) => (ratio <= TARGET_RATIO ? 'met' : 'missed');
    lines.push(
      `- ${mix.name}: a batch of 20 costs ${times(ratios.mean)} a single GET by mean latency (${verdict(ratios.mean)}), ` +
        `${times(ratios.p50)} by median (${verdict(ratios.p50)}), ${times(ratios.cost)} by cost per request at ` +
        `${CONNECTIONS} connections (${verdict(ratios.cost)}). Each further part ${ms(perPart)} ms ` +
        `(from 20 to 100 parts); a batch of 1 is ${ms(batch1.mean - one.mean)} ms slower than the single GET.`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? DEFAULT_SECONDS);
  const bench = await BrokerBench.open(API_CLIENT);
  try {
    const { db, fixture } = bench;
    // Agreements with both insurers of the fixture, so /V1000/gesellschaften lists two companies.
    await db.query(
      `INSERT INTO broker.company_agreement (tenant_id, broker_id, company_id, agency_number)
       SELECT tenant_id, $2, id, 'AG-' || vu_number FROM broker.company WHERE tenant_id = $1`,
      [fixture.tenantId, fixture.brokers.V1000],
    );
    const service = await bench.startService();
    const rssAtStart = residentMiB(service.pid);

    const references = new Map<Mix, Buffer>();
    for (const mix of MIXES) {
      const first = await send(service.port, requestOf(mix, SHAPES[0]));
      const entries = first.status === 200 ? (JSON.parse(first.body.toString()) as unknown[]).length : -1;
      if (!mix.accept(entries))
        throw new Error(`GET ${mix.path}: ${first.status} with ${entries} entries: ${first.body.toString()}`);
      references.set(mix, first.body);
      log(`GET ${mix.path}: ${entries} entries, ${first.body.length} bytes`);
    }

    const cpu = cpuTimeMeter();
    const latencies: LatencyRow[] = [];
    for (const mix of MIXES) {
      log(`latency: ${mix.path}, every request shape in turn ...`);
      latencies.push(...(await interleavedLatencies(service.port, mix, references.get(mix)!)));
    }
    process.stdout.write(`${latencyReport(latencies).join('\n')}\n`);
    const throughputs: ThroughputRow[] = [];
    for (const mix of MIXES)
      for (const shape of SHAPES.filter((entry) => entry.throughput)) {
        log(`throughput: ${mix.path}, ${shape.label}, ${seconds} s ...`);
        throughputs.push(await throughput(service.port, mix, shape, seconds));
      }

    recordFigures(throughputs.flatMap(throughputFigures));
    const batches = throughputs.reduce(
      (sum, row) => sum + (row.shape.parts > 0 ? row.requestsPerSecond * seconds : 0),
      0,
    );
    process.stdout.write(
      `${[
        ...throughputReport(latencies, throughputs),
        '',
        `No errors, no non-2xx answers, every answer checked. Service RSS ${rssAtStart} MiB after start, ` +
          `${residentMiB(service.pid)} MiB at the end (about ${whole(batches)} batches in the measured throughput ` +
          `runs alone). During the measurements: ${cpu.read()}.`,
      ].join('\n')}\n`,
    );
  } finally {
    await bench.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
