import type { IncomingMessage } from 'node:http';
import type { HttpAppSettings } from '@broker/platform';
import type { AdminConfig } from './config.js';
import { mountConsole } from './console/mount-console.js';
import { adminOpenApi } from './openapi.js';

/** Largest body of any other request (JSON). */
const JSON_LIMIT_BYTES = 1024 * 1024;
/** The API's own path, or the console's way to it. */
const MASTER_DATA_PATH = /^\/admin\/(?:console\/api\/)?v1\/tenants\/[^/]+\/master-data\/[^/]+\/?$/i;

/** Whether a request uploads a master-data file, routed as the router does (case-insensitive, the query left out). */
export function isMasterDataUpload(request: IncomingMessage): boolean {
  const path = new URL(request.url ?? '/', 'http://admin.invalid').pathname;
  return request.method === 'POST' && MASTER_DATA_PATH.test(path);
}

/**
 * The administration's HTTP settings: its OpenAPI document, a body refused from its Content-Length before it is
 * read (a master-data file above ADMIN_MASTER_DATA_MAX_BYTES, anything else above the JSON limit), and the console.
 */
export function adminHttpSettings(config: AdminConfig): HttpAppSettings {
  return {
    beforeRoutes: (app) => mountConsole(app, config),
    openApi: adminOpenApi(config),
    jsonLimitBytes: JSON_LIMIT_BYTES,
    largestBody: (request) =>
      isMasterDataUpload(request) ? config.ADMIN_MASTER_DATA_MAX_BYTES : JSON_LIMIT_BYTES,
  };
}
