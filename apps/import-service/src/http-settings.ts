import type { IncomingMessage } from 'node:http';
import type { HttpAppSettings } from '@broker/platform';
import type { ImportConfig } from './config.js';
import { importOpenApi } from './openapi.js';

/** Room an upload needs beside its file: the multipart framing and the form fields (at most 60 of 1 KiB). */
export const UPLOAD_FRAMING_BYTES = 1024 * 1024;

const UPLOAD_PATH = '/api/v1/import';
/** The slowest line an upload of the largest file is still given time for: 64 KiB/s, about half a Mbit/s. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 64 * 1024;
/** Node's own limit for a whole request, kept for small files. */
const SHORTEST_REQUEST_TIMEOUT_MS = 300_000;
/** Largest body of any other request (JSON). */
const JSON_LIMIT_BYTES = 1024 * 1024;

/**
 * The import API's HTTP settings: its OpenAPI document, and requests refused from their Content-Length before their
 * body is read (uploads above IMPORT_MAX_UPLOAD_BYTES and the framing, anything else above the JSON limit, whatever
 * its path), `Expect: 100-continue` answered with that 413.
 */
export function importHttpSettings(
  config: Pick<ImportConfig, 'IMPORT_OAUTH_TOKEN_URL' | 'IMPORT_MAX_UPLOAD_BYTES'>,
): HttpAppSettings {
  return {
    openApi: importOpenApi(config),
    jsonLimitBytes: JSON_LIMIT_BYTES,
    largestBody: (request) =>
      isUpload(request) ? config.IMPORT_MAX_UPLOAD_BYTES + UPLOAD_FRAMING_BYTES : JSON_LIMIT_BYTES,
    requestTimeoutMs: uploadRequestTimeoutMs(config.IMPORT_MAX_UPLOAD_BYTES),
  };
}

/**
 * How long a request may take to arrive whole: the largest upload on the slowest line, at least Node's 300 s
 * (200 MiB: 53 minutes). A stalled body is refused after 30 s all the same (`bodyIdleMs`).
 */
export function uploadRequestTimeoutMs(maxUploadBytes: number): number {
  const slowestUploadMs = Math.ceil((maxUploadBytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000);
  return Math.max(SHORTEST_REQUEST_TIMEOUT_MS, slowestUploadMs);
}

/** Routed as the router does: case-insensitive, a trailing slash allowed, the query left out. */
function isUpload(request: IncomingMessage): boolean {
  if (request.method !== 'POST') return false;
  const path = new URL(request.url ?? '/', 'http://upload.invalid').pathname.replace(/\/$/, '').toLowerCase();
  return path === UPLOAD_PATH;
}
