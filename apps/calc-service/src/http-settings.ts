import type { HttpAppSettings } from '@broker/platform';
import { CALC_OPENAPI } from './openapi.js';

/**
 * How the calculation service's HTTP app is built, by main.ts and the tests alike: on Fastify, because
 * comparison calculators call it at high rates (bench/calc measures it against a bare node:http server).
 */
export const CALC_HTTP_SETTINGS: HttpAppSettings = {
  platform: 'fastify',
  openApi: CALC_OPENAPI,
};
