import type { HttpAppSettings } from '@broker/platform';
import { routedPath } from './interface-version.js';
import { BROKER_OPENAPI, EMPLOYEE_OPENAPI } from './openapi.js';

/** How area C's HTTP app is built, by main.ts and the tests alike. */
export const BROKER_HTTP_SETTINGS: HttpAppSettings = {
  openApi: [EMPLOYEE_OPENAPI, BROKER_OPENAPI],
  rewriteUrl: routedPath,
};
