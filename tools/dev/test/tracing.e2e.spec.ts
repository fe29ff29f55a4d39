import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmployeeClient } from '@broker/client';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import { FIXTURE_WRITE, insertBrokerFixture, withAdministration } from '@broker/fixtures';
import { openEventStream, waitFor, writeGdvPortfolio } from '@broker/testing';
import { traceSampling } from '../src/gateway-config.js';
import { nginxInstalled, type RunningGateway, startGateway } from './gateway-process.js';
import { DEMO_API_CLIENTS } from '../src/seed/demo-data.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';
import { PINNED_NODE } from './pinned-node.js';
import { runScript, type RunningProcess, startProcesses } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

/** The statuses a stage moves on from, in order: every stage of a GDV import up to processed. */
const STAGES = IMPORT_PIPELINE_STATUSES.slice(0, IMPORT_PIPELINE_STATUSES.indexOf('processed'));

const QUERY_SECRET = 'geheim-4711';
const RECEIVER_SECRET = 'empfaenger-0815';

const inTrace = (spans: ReceivedSpan[], traceId: string) => spans.filter((span) => span.traceId === traceId);

describe('traces: an upload through the import API and every stage of the worker (OTLP/HTTP, JSON)', () => {
  let receiver: OtlpReceiver;
  let webhookReceiver: Server;
  let suite: SuiteEnvironment;
  let services: Record<'api' | 'worker', RunningProcess>;
  let fileDir: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    webhookReceiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => webhookReceiver.listen(0, '127.0.0.1', resolve));
    suite = await createSuiteEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      IMPORT_WEBHOOK_ALLOW_HTTP: 'true',
      IMPORT_WEBHOOK_DISPATCH_MS: '100',
    });
    await insertBrokerFixture(String(suite.env.DATABASE_URL));
    services = await startProcesses({
      api: { script: 'apps/import-service/dist/main.js', env: suite.env },
      worker: { script: 'apps/import-service/dist/worker.js', env: suite.env },
    });
    fileDir = mkdtempSync(path.join(tmpdir(), 'tracing-'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    webhookReceiver?.close();
    await receiver?.close();
    rmSync(fileDir, { recursive: true, force: true });
    await suite?.cleanup();
  });

  async function writeGdvFile(): Promise<string> {
    const file = path.join(fileDir, 'bestand.gdv');
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(file).on('finish', resolve).on('error', reject);
      void writeGdvPortfolio(out, { contracts: 200, policyPrefix: 'T' }).then(() => out.end(), reject);
    });
    return file;
  }

  it('holds the upload, every stage span of the worker, PostgreSQL spans and linked deliveries and streams in one trace', async () => {
    const authorization = { Authorization: `Bearer ${await suite.importToken()}` };
    const { port } = webhookReceiver.address() as AddressInfo;
    const registered = await fetch(`${services.api.baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { ...authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        url: `http://127.0.0.1:${port}/hook?key=${RECEIVER_SECRET}`,
        event_types: ['import.processed'],
      }),
    });
    expect(registered.status).toBe(201);

    const form = new FormData();
    form.append('companies[0]', '9999');
    form.append('file', await openAsBlob(await writeGdvFile()), 'bestand.gdv');
    const uploaded = await fetch(`${services.api.baseUrl}/api/v1/import`, {
      method: 'POST',
      headers: authorization,
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { process_id: processId } = (await uploaded.json()) as { process_id: string };
    const stream = await openEventStream(
      `${services.api.baseUrl}/api/v1/processes/${processId}/events`,
      authorization,
    );
    const events: string[] = [];
    for await (const event of stream.events) events.push(event.event ?? '');
    stream.close();
    expect(events.at(-1)).toBe('end');

    const upload = await receiver.waitFor((spans) =>
      spans.find((span) => span.name === 'POST /api/v1/import' && span.parentSpanId === ''),
    );
    const trace = await receiver.waitFor((spans) => {
      const found = inTrace(spans, upload.traceId);
      return found.filter((span) => span.name.startsWith('import stage ')).length === STAGES.length
        ? found
        : undefined;
    });
    expect(upload.resource).toMatchObject({
      'service.name': 'import-service',
      'process.runtime.version': PINNED_NODE,
    });
    expect(upload.attributes).toMatchObject({
      'http.route': '/api/v1/import',
      'http.response.status_code': 200,
    });

    const stageSpans = trace.filter((span) => span.name.startsWith('import stage '));
    expect(stageSpans.map((span) => span.attributes['import.stage'])).toEqual(STAGES);
    for (const span of stageSpans) {
      expect(span.resource['service.name']).toBe('import-worker');
      expect(span.attributes['import.process_id']).toBe(processId);
    }
    // The worker's job spans continue the trace: each stage's job is a child of the span that enqueued it.
    const ids = new Set(trace.map((span) => span.spanId));
    expect(trace.filter((span) => span !== upload && !ids.has(span.parentSpanId))).toEqual([]);
    const queries = trace.filter((span) => span.scope === '@opentelemetry/instrumentation-pg');
    expect(new Set(queries.map((span) => span.resource['service.name']))).toEqual(
      new Set(['import-service', 'import-worker']),
    );
    expect(trace.some((span) => span.scope === '@opentelemetry/instrumentation-ioredis')).toBe(true);

    // The delivery and the event stream run in traces of their own, linked to the upload's.
    const linked = (span: ReceivedSpan) => span.links.some((link) => link.traceId === upload.traceId);
    const delivery = await receiver.waitFor((spans) =>
      spans.find((span) => span.name === 'webhook import.processed'),
    );
    expect(linked(delivery)).toBe(true);
    const streamRequest = await receiver.waitFor((spans) =>
      spans.find((span) => span.name === 'GET /api/v1/processes/:processId/events'),
    );
    expect(
      await receiver.waitFor((spans) => inTrace(spans, streamRequest.traceId).find(linked)),
    ).toMatchObject({
      name: 'ProcessEventsController.events',
    });

    // The upload's request log line names the trace and its span.
    const uploadLine = services.api
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string }; trace_id?: string })
      .find((line) => line.msg === 'request completed' && line.req?.url === '/api/v1/import');
    expect(uploadLine).toMatchObject({
      trace_id: upload.traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });

    // No credential reaches the collector: the bearer token, a query token, a receiver's own secret.
    const probed = await fetch(`${services.api.baseUrl}/api/v1/list?token=${QUERY_SECRET}`, {
      headers: authorization,
    });
    // Refused (the list takes no such parameter), and traced all the same.
    expect(probed.status).toBe(400);
    const traced = await receiver.waitFor((spans) => spans.find((span) => span.name === 'GET /api/v1/list'));
    expect(traced.attributes['url.query']).toBe('token=[redacted]');
    expect(delivery.links).toHaveLength(1);
    const outgoing = inTrace(receiver.spans, delivery.traceId).find(
      (span) => span.scope === '@opentelemetry/instrumentation-http' && span.name === 'POST',
    );
    expect(outgoing?.attributes['url.full']).toBe(`http://127.0.0.1:${port}/hook?key=%5Bredacted%5D`);
    const exported = JSON.stringify(receiver.spans);
    for (const secret of [authorization.Authorization.slice('Bearer '.length), QUERY_SECRET, RECEIVER_SECRET])
      expect(exported).not.toContain(secret);
  }, 120_000);
});

const describeWithNginx = nginxInstalled('traces through the gateway') ? describe : describe.skip;

describeWithNginx('traces: a calculation through the gateway (OTLP/HTTP, protobuf by default)', () => {
  const CALCULATION_USER = { username: 'Rechner', password: 'Kennwort-Spur-4711' };
  let receiver: OtlpReceiver;
  let suite: SuiteEnvironment;
  let calc: RunningProcess;
  /** Samples every trace it starts or continues (the services' default sampler). */
  let gateway: RunningGateway;
  /** Samples none (a services' sampler of always_off). */
  let unsampledGateway: RunningGateway;
  let token: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    suite = await createSuiteEnvironment({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    await withAdministration(String(suite.env.DATABASE_URL), async (admin) => {
      await admin.tenants.create(FIXTURE_WRITE, { id: 'demo', name: 'Demo' });
      await admin.calcUsers.create(FIXTURE_WRITE, 'demo', CALCULATION_USER);
    });
    ({ calc } = await startProcesses({ calc: { script: 'apps/calc-service/dist/main.js', env: suite.env } }));
    const login = await fetch(`${calc.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(CALCULATION_USER),
    });
    token = ((await login.json()) as { token: string }).token;
    const limits = {
      GATEWAY_RATE_PER_SECOND: '50',
      GATEWAY_RATE_BURST: '100',
      GATEWAY_MAX_BODY_BYTES: String(1024 * 1024),
      GATEWAY_MAX_UPLOAD_BYTES: String(1024 * 1024),
    };
    const upstreams = { import: calc, calc, broker: calc, admin: calc };
    gateway = await startGateway(upstreams, limits);
    unsampledGateway = await startGateway(upstreams, {
      ...limits,
      GATEWAY_TRACE_SAMPLING: traceSampling('always_off'),
    });
  }, 120_000);

  afterAll(async () => {
    gateway?.stop();
    unsampledGateway?.stop();
    await calc?.terminate();
    await receiver?.close();
    await suite?.cleanup();
  });

  const calculate = (through: RunningGateway, headers: Record<string, string> = {}) =>
    fetch(`${through.url}/api/v1/calculate/private-liability`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify({
        policyholder: { birthdate: 482_803_200, sex: 'female', name: 'Muster' },
        subject_matter: { policyholder: { civil_servant: false }, include_children: false },
        previous_insurance_exists: false,
        previous_damages_exist: false,
        desired_payment_mode: 'yearly',
      }),
    });

  /** The trace ids of a gateway's access log lines written so far (whole lines only), in order. */
  const loggedTraceIds = (logged: RunningGateway) =>
    readFileSync(path.join(logged.stateDir, 'access.log'), 'utf8')
      .split('\n')
      .slice(0, -1)
      .map((line) => (JSON.parse(line) as { trace_id: string }).trace_id);

  /** nginx writes a request's access log line after its answer: waits for it. */
  const awaitLogged = (logged: RunningGateway, traceId: string) =>
    waitFor(() => loggedTraceIds(logged).includes(traceId) || undefined, 5_000);

  /** The trace id of the line the gateway logs for the request `send` makes. */
  async function traceIdLoggedFor(logged: RunningGateway, send: () => Promise<unknown>): Promise<string> {
    const before = loggedTraceIds(logged).length;
    await send();
    return waitFor(() => loggedTraceIds(logged)[before], 5_000);
  }

  it('continues the trace of a traceparent the caller sends, without its tracestate, and logs its id', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const answer = await calculate(gateway, {
      traceparent: `00-${traceId}-${parentId}-00`,
      tracestate: 'vendor=from-outside',
    });
    expect(answer.status).toBe(200);
    const server = await receiver.waitFor((spans) =>
      spans.find((span) => span.traceId === traceId && span.name.startsWith('POST ')),
    );
    // Sampled although the caller said not to: the gateway decides.
    expect(server).toMatchObject({
      parentSpanId: parentId,
      traceState: '',
      name: 'POST /api/v1/calculate/private-liability',
      resource: { 'service.name': 'calc-service', 'process.runtime.version': PINNED_NODE },
    });
    expect(receiver.contentTypes).toEqual(new Set(['application/x-protobuf']));
    await awaitLogged(gateway, traceId);
  });

  it('starts the trace itself for a request without one (or with a malformed one), and logs its id', async () => {
    for (const headers of [{}, { traceparent: '00-not-a-trace-01' }] as Record<string, string>[]) {
      const traceId = await traceIdLoggedFor(gateway, async () =>
        expect((await calculate(gateway, headers)).status).toBe(200),
      );
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      await receiver.waitFor((spans) => spans.find((span) => span.traceId === traceId));
    }
  });

  it('samples as its sampler says, whatever the caller asks for', async () => {
    const forced = randomBytes(16).toString('hex');
    const answer = await calculate(unsampledGateway, {
      traceparent: `00-${forced}-${randomBytes(8).toString('hex')}-01`,
    });
    expect(answer.status).toBe(200);
    await awaitLogged(unsampledGateway, forced);
    // A sampled request after it: once its span is in, the first would have been too (one exporter, in order).
    const later = randomBytes(16).toString('hex');
    await calculate(gateway, { traceparent: `00-${later}-${randomBytes(8).toString('hex')}-01` });
    await receiver.waitFor((spans) => spans.find((span) => span.traceId === later));
    expect(receiver.spans.filter((span) => span.traceId === forced)).toEqual([]);
  });
});

describe('tracing configuration', () => {
  let suite: SuiteEnvironment;

  beforeAll(async () => {
    suite = await createSuiteEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
  });
  afterAll(() => suite?.cleanup());

  it.each([
    [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP)',
    ],
    [{ OTEL_TRACES_SAMPLER_ARG: '10' }, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1'],
    [{ OTEL_TRACES_SAMPLER_ARG: '1e-1' }, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1'],
    [
      { OTEL_TRACES_SAMPLER: 'xray' },
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL',
    ],
  ])('stops a process with one readable line for a bad tracing variable: %j', async (override, line) => {
    const result = await runScript('apps/calc-service/dist/main.js', [], { ...suite.env, ...override });
    expect(result.code).toBe(78);
    expect(result.stderr).toBe(`Configuration error: ${line}\n`);
  });
});

describe('traces: a multi-call of the broker service, its parts as child spans', () => {
  let receiver: OtlpReceiver;
  let suite: SuiteEnvironment;
  let broker: RunningProcess;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    suite = await createSuiteEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const seeded = await runScript('tools/dev/dist/db-cli.js', ['seed'], suite.env);
    if (seeded.code !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
    ({ broker } = await startProcesses({
      broker: { script: 'apps/broker-service/dist/main.js', env: suite.env },
    }));
  }, 120_000);

  afterAll(async () => {
    await broker?.terminate();
    await receiver?.close();
    await suite?.cleanup();
  });

  it('answers the calls of one tick in one batch, each part a child of the batch in the caller’s trace', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const employee = createEmployeeClient({
      baseUrl: `${broker.baseUrl}/service/demo/employee/1.0/rest`,
      ...DEMO_API_CLIENTS[0],
      cache: false,
      fetch: (request) => {
        request.headers.set('traceparent', `00-${traceId}-${parentId}-01`);
        return fetch(request);
      },
    });
    const [salutations, countries] = await Promise.all([
      employee.api.GET('/anreden'),
      employee.api.GET('/laender'),
    ]);
    expect([salutations.response.status, countries.response.status]).toEqual([200, 200]);

    const spans = await receiver.waitFor((received) => {
      const found = inTrace(received, traceId);
      return found.filter((span) => span.name.startsWith('GET ')).length === 2 ? found : undefined;
    });
    const batch = spans.find((span) => span.name === 'POST /service/:tenant/employee/v1/rest')!;
    const batchHandler = spans.find((span) => span.name === 'MultiCallController.employeeBatch')!;
    const parts = spans.filter((span) => span.name.startsWith('GET '));
    expect(batch.parentSpanId).toBe(parentId);
    expect(parts.map((span) => span.parentSpanId)).toEqual([batchHandler.spanId, batchHandler.spanId]);
    expect(new Set(parts.map((span) => span.attributes['http.route']))).toEqual(
      new Set(['/service/:tenant/employee/v1/rest/anreden', '/service/:tenant/employee/v1/rest/laender']),
    );
  });
});
