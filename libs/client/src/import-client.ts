import { randomBytes, randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import createClient, { type Client } from 'openapi-fetch';
import { must } from './api-error.js';
import { bearerFetch } from './bearer.js';
import { type BearerAuth, bearerTokens } from './client-credentials.js';
import { globalFetch } from './fetch-function.js';
import { type EventsOptions, type ImportEvent, importEvents } from './import-events.js';
import type { components, paths } from './generated/import-api.js';
import { type Paged, pagedCall } from './paging.js';
import {
  retrySettings,
  timedFetch,
  type TransportOptions,
  transportFetch,
  untilNotRefused,
} from './transport.js';

export type ImportProcessReport = components['schemas']['ImportProcessReport'];
export type ImportProcessView = components['schemas']['ImportProcessView'];
export type ImportStatus = components['schemas']['ImportStatus'];
export type ImportDryRunReport = components['schemas']['ImportDryRunReport'];
export type ImportDryRunStarted = components['schemas']['ImportDryRunStarted'];

export type WebhookEndpointCreated = components['schemas']['WebhookEndpointCreated'];
export type WebhookEndpointView = components['schemas']['WebhookEndpointView'];
export type WebhookAttemptView = components['schemas']['WebhookAttemptView'];
export type WebhookEventType = components['schemas']['CreateWebhookEndpoint']['event_types'][number];

export interface ImportClientOptions extends TransportOptions {
  /** The import service's base, e.g. `https://gateway.example.com/api/v1`. */
  baseUrl: string;
  /**
   * The access token (scope service.imports): OAuth 2.0 client credentials (cached, renewed before it expires), a
   * token provider (a function asked at every call) or a static token.
   */
  auth: BearerAuth;
}

/** A GDV or CSV file: a path on disk, a Blob (or File), or a stream of bytes. */
export type ImportFile = string | Blob | AsyncIterable<Uint8Array>;

export interface UploadOptions {
  /** VU numbers of the insurers of the file (at least one for a GDV file). */
  companies?: string[];
  /** The caller's broker number or one below it; default the caller's. */
  broker?: string;
  /** The file name the service records; default the path's base name or the File's name, else `import`. */
  fileName?: string;
  /**
   * Sent as `Idempotency-Key`: the same key within 24 hours answers the first upload's process. Made for each
   * upload when retries are on, so a repeated upload never imports the file twice (a path or a Blob is sent again
   * after a 503 or 429; a stream of bytes, read once, is not).
   */
  idempotencyKey?: string;
  /** Aborts the upload (it has no timeout of its own: it lasts as long as the file). */
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** Called with the report whenever the status changed since the last poll, the end included. */
  onProgress?: (report: ImportProcessReport) => void;
  /** Between two polls; default 1,000 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
}

/** The statuses a process does not leave by itself. */
const END_STATUSES: ReadonlySet<ImportStatus> = new Set(['processed', 'failed', 'archived']);

/** Webhook management (extension): the broker's endpoints, their secrets and their delivery attempts. */
export interface WebhookHelpers {
  /** Registers an endpoint; the answer's `secret` is shown only here (verify deliveries with verifyImportWebhook). */
  register(url: string, eventTypes: WebhookEventType[]): Promise<WebhookEndpointCreated>;
  list(): Promise<WebhookEndpointView[]>;
  /** A new signing secret; the previous one signs beside it for 24 hours. */
  rotateSecret(endpointId: string): Promise<WebhookEndpointCreated>;
  /** The endpoint's last 100 delivery attempts, newest first. */
  attempts(endpointId: string): Promise<WebhookAttemptView[]>;
  delete(endpointId: string): Promise<void>;
}

export interface ImportClient {
  /** The typed client of every operation of the import document (`startImport`, `listImports`, the report). */
  api: Client<paths>;
  /** Uploads a file (streamed, never read into memory as a whole) and answers its process id. */
  upload(file: ImportFile, options?: UploadOptions): Promise<string>;
  /**
   * Extension: reads and checks the file as an import would, writing nothing: the report at once for a small file,
   * a dry-run process (read with `waitForEnd` or `events`) for a large one.
   */
  dryRun(file: ImportFile, options?: UploadOptions): Promise<ImportDryRunReport | ImportDryRunStarted>;
  /** Polls the process's report until it is processed, failed or archived, and answers that report. */
  waitForEnd(processId: string, options?: WaitOptions): Promise<ImportProcessReport>;
  /**
   * The process's events as they happen (extension: Server-Sent Events), reconnecting with Last-Event-ID; the
   * iteration ends after the `end` event.
   */
  events(processId: string, options?: EventsOptions): AsyncGenerator<ImportEvent>;
  /** listImports, newest first, a page at a time as they are iterated; `pages()` with the total (X-Total-Count). */
  processes(options?: { pageSize?: number }): Paged<ImportProcessView>;
  webhooks: WebhookHelpers;
}

/** A client of the import service (area A): every call with the access token `auth` gives. */
export function createImportClient(options: ImportClientOptions): ImportClient {
  const send = options.fetch ?? globalFetch;
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const tokens = bearerTokens(options.auth, 'service.imports', timedFetch(send, options));
  const authorized = bearerFetch(tokens, send);
  const api = createClient<paths>({ baseUrl, fetch: transportFetch(authorized, options) });
  // Uploads and event streams take as long as the file or the import: no timeout; uploads repeat on their own.
  const longCalls = createClient<paths>({ baseUrl, fetch: authorized });
  const uploads = new Uploads(longCalls, retrySettings(options.retry));
  return {
    api,
    upload: (file, uploadOptions = {}) => uploads.upload(file, uploadOptions),
    dryRun: (file, uploadOptions = {}) => uploads.dryRun(file, uploadOptions),
    waitForEnd: (processId, waitOptions = {}) => waitForEnd(api, processId, waitOptions),
    events: (processId, eventsOptions) =>
      importEvents(authorized, `${baseUrl}/processes/${encodeURIComponent(processId)}/events`, eventsOptions),
    processes: ({ pageSize = 50 } = {}) =>
      pagedCall(pageSize, 'X-Total-Count', (offset, limit) =>
        api.GET('/list', { params: { query: { offset, limit } } }),
      ),
    webhooks: webhookHelpers(api),
  };
}

function webhookHelpers(api: Client<paths>): WebhookHelpers {
  const endpoint = (endpointId: string) => ({ params: { path: { endpointId } } });
  return {
    register: (url, eventTypes) => must(api.POST('/webhooks', { body: { url, event_types: eventTypes } })),
    list: () => must(api.GET('/webhooks')),
    rotateSecret: (endpointId) => must(api.POST('/webhooks/{endpointId}/secret', endpoint(endpointId))),
    attempts: (endpointId) => must(api.GET('/webhooks/{endpointId}/attempts', endpoint(endpointId))),
    delete: async (endpointId) => {
      await must(api.DELETE('/webhooks/{endpointId}', endpoint(endpointId)));
    },
  };
}

/** POST /import: an upload or a dry run, sent again after a 503 or 429 when retries are on and the file can be read again. */
class Uploads {
  constructor(
    private readonly api: Client<paths>,
    private readonly retry: ReturnType<typeof retrySettings>,
  ) {}

  async upload(file: ImportFile, options: UploadOptions): Promise<string> {
    const started = await this.post(file, options, false);
    if (!('process_id' in started))
      throw new Error('The import service answered an upload with a dry-run report');
    return started.process_id;
  }

  async dryRun(file: ImportFile, options: UploadOptions): Promise<ImportDryRunReport | ImportDryRunStarted> {
    const answer = await this.post(file, options, true);
    if (!('dry_run' in answer))
      throw new Error('The import service answered a dry run by starting an import');
    return answer;
  }

  private async post(file: ImportFile, options: UploadOptions, dryRun: boolean) {
    // A stream of bytes is read once: it cannot be sent again.
    const retry = typeof file === 'string' || file instanceof Blob ? this.retry : null;
    const idempotencyKey = options.idempotencyKey ?? (this.retry ? randomUUID() : undefined);
    const send = () => postFile(this.api, file, options, dryRun, idempotencyKey);
    if (!retry) return must(send());
    let call: ReturnType<typeof send> | undefined;
    await untilNotRefused(retry, options.signal, async () => (await (call = send())).response);
    return must(call!);
  }
}

/** POST /import with the file streamed as multipart/form-data: an import, or a dry run of it. */
async function postFile(
  api: Client<paths>,
  file: ImportFile,
  options: UploadOptions,
  dryRun: boolean,
  idempotencyKey: string | undefined,
) {
  const fields: [string, string][] = (options.companies ?? []).map((company, index) => [
    `companies[${index}]`,
    company,
  ]);
  if (options.broker !== undefined) fields.push(['broker', options.broker]);
  // A path that cannot be read fails here, with the file system's error, not as a broken upload.
  if (typeof file === 'string') await access(file, constants.R_OK);
  const boundary = `----broker-client-${randomBytes(12).toString('hex')}`;
  const fileName = fileNameOf(file, options);
  return api.POST('/import', {
    params: {
      query: dryRun ? { dry_run: 'true' } : {},
      header: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
    },
    // The form is streamed as it is written; the typed body only names the file.
    body: { file: fileName },
    bodySerializer: () => ReadableStream.from(formData(boundary, fields, fileName, bytesOf(file))),
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    duplex: 'half',
    signal: options.signal,
  });
}

function fileNameOf(file: ImportFile, options: UploadOptions): string {
  if (options.fileName) return options.fileName;
  if (typeof file === 'string') return path.basename(file);
  if (typeof File !== 'undefined' && file instanceof File && file.name) return file.name;
  return 'import';
}

function bytesOf(file: ImportFile): AsyncIterable<Uint8Array> {
  if (typeof file === 'string') return createReadStream(file);
  if (file instanceof Blob) return file.stream();
  return file;
}

/** multipart/form-data (RFC 7578): the form fields, then the file part, its bytes as they come. */
async function* formData(
  boundary: string,
  fields: [string, string][],
  fileName: string,
  bytes: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const [name, value] of fields) {
    yield encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
  }
  // An ASCII name for every reader, the exact one (RFC 5987) for those that read it, as the import service does.
  const asciiName = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  yield encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${asciiName}"; ` +
      `filename*=UTF-8''${encodeURIComponent(fileName)}\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  yield* bytes;
  yield encoder.encode(`\r\n--${boundary}--\r\n`);
}

async function waitForEnd(
  api: Client<paths>,
  processId: string,
  { onProgress, intervalMs = 1_000, signal }: WaitOptions,
): Promise<ImportProcessReport> {
  let lastStatus: ImportStatus | null = null;
  for (;;) {
    signal?.throwIfAborted();
    const report = await must(
      api.GET('/processes/{processId}/report', { params: { path: { processId } }, signal }),
    );
    if (report.status !== lastStatus) onProgress?.(report);
    lastStatus = report.status;
    if (END_STATUSES.has(report.status)) return report;
    await sleep(intervalMs, undefined, { signal });
  }
}
