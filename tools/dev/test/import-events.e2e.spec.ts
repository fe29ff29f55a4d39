import 'reflect-metadata';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IMPORT_PIPELINE_STATUSES, type ImportProcessEvent } from '@broker/contracts';
import { openEventStream, type ReceivedEvent, waitFor, writeGdvPortfolio } from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { nginxInstalled, type RunningGateway, startImportGateway } from './gateway-process.js';
import { type RunningProcess, startProcess, startProcesses } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

/** Every status of the spec up to processed, in order. */
const THROUGH_PROCESSED = IMPORT_PIPELINE_STATUSES.slice(
  0,
  IMPORT_PIPELINE_STATUSES.indexOf('processed') + 1,
);
/** Large enough that decoding the file takes a few seconds here, so that progress events come while it runs. */
const LARGE_FILE = 40_000;
/** Contracts of the files of the other tests. */
const SMALL_FILE = 2_000;
const HEARTBEAT_MS = 300;
/** Streams per API process in this suite: clients that leave at once must not use them up. */
const MAX_STREAMS = 20;

interface Received extends ReceivedEvent {
  parsed: ImportProcessEvent;
}

describe('import events: Server-Sent Events from the worker through any API process and the gateway', () => {
  let suite: SuiteEnvironment;
  let services: Record<'api' | 'secondApi' | 'worker', RunningProcess>;
  let gateway: RunningGateway | undefined;
  let fileDir: string;
  /** The events of the first test's process, for ids of another process. */
  let firstProcessEvents: Received[] = [];
  /** Lines of the file uploaded last. */
  let gdvLines = 0;

  beforeAll(async () => {
    suite = await createSuiteEnvironment({
      LOG_LEVEL: 'warn',
      IMPORT_EVENTS_HEARTBEAT_MS: String(HEARTBEAT_MS),
      IMPORT_EVENTS_POLL_MS: '1000',
      IMPORT_EVENT_STREAMS_MAX: String(MAX_STREAMS),
    });
    await insertBrokerFixture(String(suite.env.DATABASE_URL));
    services = await startProcesses({
      api: { script: 'apps/import-service/dist/main.js', env: suite.env },
      secondApi: { script: 'apps/import-service/dist/main.js', env: suite.env },
      worker: { script: 'apps/import-service/dist/worker.js', env: suite.env },
    });
    if (nginxInstalled('import events through the gateway'))
      gateway = await startImportGateway(services.api, 200 * 1024 * 1024);
    fileDir = mkdtempSync(path.join(tmpdir(), 'import-events-'));
  }, 120_000);

  afterAll(async () => {
    gateway?.stop();
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    rmSync(fileDir, { recursive: true, force: true });
    await suite?.cleanup();
  });

  const authorization = async (brokerNumber?: string) => ({
    Authorization: `Bearer ${await suite.importToken(brokerNumber)}`,
  });

  async function upload(baseUrl: string, policyPrefix: string, contracts = SMALL_FILE): Promise<string> {
    const file = path.join(fileDir, `${policyPrefix}.gdv`);
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(file).on('finish', resolve).on('error', reject);
      void writeGdvPortfolio(out, { contracts, policyPrefix }).then(() => out.end(), reject);
    });
    const form = new FormData();
    form.append('companies[0]', '9999');
    gdvLines = readFileSync(file, 'latin1').split('\n').filter(Boolean).length;
    form.append('file', await openAsBlob(file), 'bestand.gdv');
    const answer = await fetch(`${baseUrl}/api/v1/import`, {
      method: 'POST',
      headers: await authorization(),
      body: form,
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { process_id: string }).process_id;
  }

  const eventsUrl = (baseUrl: string, processId: string) => `${baseUrl}/api/v1/processes/${processId}/events`;

  /** Reads events until the stream ends, or until `stopAfter` says so (then leaves). */
  async function readEvents(
    url: string,
    headers: Record<string, string> = {},
    stopAfter: (event: Received) => boolean = () => false,
  ): Promise<Received[]> {
    const stream = await openEventStream(url, { ...(await authorization()), ...headers });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const received: Received[] = [];
    for await (const event of stream.events) {
      const entry = { ...event, parsed: JSON.parse(event.data) as ImportProcessEvent };
      received.push(entry);
      if (stopAfter(entry)) break;
    }
    stream.close();
    return received;
  }

  const statusesOf = (events: Received[]) =>
    events.filter((event) => event.event === 'status').map((event) => event.parsed.status);

  it('sends every status of a GDV import in order, with progress, and the end event, from another API process', async () => {
    const processId = await upload(services.api.baseUrl, 'A', LARGE_FILE);
    const events = await readEvents(eventsUrl(services.secondApi.baseUrl, processId));

    expect(statusesOf(events)).toEqual(THROUGH_PROCESSED);
    const statusIds = events.filter((event) => event.event === 'status').map((event) => BigInt(event.id!));
    expect(statusIds).toEqual([...statusIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);

    const progress = events.filter((event) => event.event === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const event of progress) {
      expect(event.parsed.status).toBe('received');
      expect(event.parsed.progress).toMatchObject({ stage: 'imported', total: gdvLines });
      expect(event.parsed.progress.done).toBeGreaterThan(0);
      expect(event.parsed.progress.done).toBeLessThanOrEqual(gdvLines);
    }
    const percents = events.map((event) => event.parsed.progress.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));

    const end = events.at(-1)!;
    expect(end.event).toBe('end');
    expect(end.parsed).toEqual({
      process_id: processId,
      status: 'processed',
      progress: { stage: 'processed', done: null, total: null, percent: 100 },
    });
    // Connecting after the end: the whole history at once, in order (ids 1-14 here: numerically, not as text).
    const late = await readEvents(eventsUrl(services.api.baseUrl, processId));
    expect(statusesOf(late)).toEqual(THROUGH_PROCESSED);
    expect(late.at(-1)?.event).toBe('end');
    firstProcessEvents = events;
    const report = await fetch(`${services.api.baseUrl}/api/v1/processes/${processId}/report`, {
      headers: await authorization(),
    });
    expect(((await report.json()) as { progress: unknown }).progress).toEqual(end.parsed.progress);
  }, 120_000);

  it('resumes after Last-Event-ID without gaps or repeats, at another API process; after the end event, 204', async () => {
    const processId = await upload(services.secondApi.baseUrl, 'B');
    const first = await readEvents(
      eventsUrl(services.api.baseUrl, processId),
      {},
      (event) => event.event === 'progress' || event.parsed.status === 'validated',
    );
    const resumed = await readEvents(eventsUrl(services.secondApi.baseUrl, processId), {
      'Last-Event-ID': first.at(-1)!.id!,
    });
    expect([...statusesOf(first), ...statusesOf(resumed)]).toEqual(THROUGH_PROCESSED);
    const ids = [...first, ...resumed].map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);

    const afterEnd = await fetch(eventsUrl(services.api.baseUrl, processId), {
      headers: { ...(await authorization()), 'Last-Event-ID': resumed.at(-1)!.id! },
    });
    expect(afterEnd.status).toBe(204);
    // A client connecting after the end gets the whole history and the end at once.
    expect(statusesOf(await readEvents(eventsUrl(services.api.baseUrl, processId)))).toEqual(
      THROUGH_PROCESSED,
    );
    // Ids of another process name nothing here: the stream starts from the beginning.
    for (const foreign of [firstProcessEvents[3].id!, firstProcessEvents.at(-1)!.id!]) {
      const url = eventsUrl(services.api.baseUrl, processId);
      expect(statusesOf(await readEvents(url, { 'Last-Event-ID': foreign }))).toEqual(THROUGH_PROCESSED);
    }
  }, 120_000);

  it('frees a stream whose client left before it was answered', async () => {
    const processId = await upload(services.api.baseUrl, 'E');
    const { port } = new URL(services.api.baseUrl);
    const { Authorization } = await authorization();
    for (let client = 0; client < MAX_STREAMS * 3; client++) {
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `GET /api/v1/processes/${processId}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${Authorization}\r\n\r\n`,
      );
      socket.destroy();
    }
    // Had each left a stream behind, the process would refuse every new one (503).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(statusesOf(await readEvents(eventsUrl(services.api.baseUrl, processId)))).toEqual(
      THROUGH_PROCESSED,
    );
  }, 120_000);

  it('answers 404 for another broker’s or an unknown process, 401 without a token', async () => {
    const processId = await upload(services.api.baseUrl, 'C');
    const url = eventsUrl(services.api.baseUrl, processId);
    expect((await fetch(url, { headers: await authorization('V1001') })).status).toBe(404);
    expect(
      (await fetch(eventsUrl(services.api.baseUrl, crypto.randomUUID()), { headers: await authorization() }))
        .status,
    ).toBe(404);
    expect((await fetch(url)).status).toBe(401);
    await readEvents(url);
  }, 120_000);

  it('passes events through the gateway as they come, kept open by heartbeats', async () => {
    if (!gateway) return;
    // Without a worker the process stays uploaded: only its first event and the heartbeats come.
    await services.worker.terminate();
    const processId = await upload(gateway.url, 'D');
    const stream = await openEventStream(eventsUrl(gateway.url, processId), await authorization());
    expect(stream.status).toBe(200);
    const first = (await stream.events.next()).value as ReceivedEvent;
    expect(first.event).toBe('status');
    expect((JSON.parse(first.data) as ImportProcessEvent).status).toBe('uploaded');
    await waitFor(() => (stream.comments.length >= 3 ? true : undefined), 5_000);
    expect(stream.comments[0].trim()).toBe('keep-alive');
    // The worker comes back: the rest arrives on the open stream.
    services.worker = await startProcess('apps/import-service/dist/worker.js', suite.env);
    const rest: string[] = [];
    for await (const event of stream.events)
      if (event.event === 'status') rest.push((JSON.parse(event.data) as ImportProcessEvent).status);
    expect(['uploaded', ...rest]).toEqual(THROUGH_PROCESSED);
  }, 120_000);
});
