import { randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import createClient, { type Client } from 'openapi-fetch';
import { must } from './api-error.js';
import { bearerFetch } from './bearer.js';
import { type ClientCredentials, ClientCredentialsTokens } from './client-credentials.js';
import { type FetchFunction, globalFetch } from './fetch-function.js';
import { type EventsOptions, type ImportEvent, importEvents } from './import-events.js';
import type { components, paths } from './generated/import-api.js';

export type ImportProcessReport = components['schemas']['ImportProcessReport'];
export type ImportProcessView = components['schemas']['ImportProcessView'];
export type ImportStatus = components['schemas']['ImportStatus'];
export type ImportDryRunReport = components['schemas']['ImportDryRunReport'];
export type ImportDryRunStarted = components['schemas']['ImportDryRunStarted'];

export interface ImportClientOptions {
  /** The import service's base, e.g. `https://gateway.example.com/api/v1`. */
  baseUrl: string;
  credentials: ClientCredentials;
  fetch?: FetchFunction;
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
}

/** A client of the import service (area A) with OAuth 2.0 client credentials, its token cached and renewed. */
export function createImportClient(options: ImportClientOptions): ImportClient {
  const send = options.fetch ?? globalFetch;
  const authorized = bearerFetch(new ClientCredentialsTokens(options.credentials, send), send);
  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch: authorized });
  return {
    api,
    upload: (file, uploadOptions = {}) => upload(api, file, uploadOptions),
    dryRun: (file, uploadOptions = {}) => dryRun(api, file, uploadOptions),
    waitForEnd: (processId, waitOptions = {}) => waitForEnd(api, processId, waitOptions),
    events: (processId, eventsOptions) =>
      importEvents(
        authorized,
        `${options.baseUrl.replace(/\/$/, '')}/processes/${encodeURIComponent(processId)}/events`,
        eventsOptions,
      ),
  };
}

async function upload(api: Client<paths>, file: ImportFile, options: UploadOptions): Promise<string> {
  const started = await postFile(api, file, options, false);
  if (!('process_id' in started))
    throw new Error('The import service answered an upload with a dry-run report');
  return started.process_id;
}

async function dryRun(
  api: Client<paths>,
  file: ImportFile,
  options: UploadOptions,
): Promise<ImportDryRunReport | ImportDryRunStarted> {
  const answer = await postFile(api, file, options, true);
  if (!('dry_run' in answer)) throw new Error('The import service answered a dry run by starting an import');
  return answer;
}

/** POST /import with the file streamed as multipart/form-data: an import, or a dry run of it. */
async function postFile(api: Client<paths>, file: ImportFile, options: UploadOptions, dryRun: boolean) {
  const fields: [string, string][] = (options.companies ?? []).map((company, index) => [
    `companies[${index}]`,
    company,
  ]);
  if (options.broker !== undefined) fields.push(['broker', options.broker]);
  // A path that cannot be read fails here, with the file system's error, not as a broken upload.
  if (typeof file === 'string') await access(file, constants.R_OK);
  const boundary = `----broker-client-${randomBytes(12).toString('hex')}`;
  const fileName = fileNameOf(file, options);
  return must(
    api.POST('/import', {
      params: { query: dryRun ? { dry_run: 'true' } : {} },
      // The form is streamed as it is written; the typed body only names the file.
      body: { file: fileName },
      bodySerializer: () => ReadableStream.from(formData(boundary, fields, fileName, bytesOf(file))),
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      duplex: 'half',
    }),
  );
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
