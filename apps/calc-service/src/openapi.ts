import { apiErrors, CIVIL_SERVICE_OCCUPATION_SCHEMA } from '@broker/contracts';
import type { OpenApiSettings } from '@broker/platform';
import { CIVIL_SERVICE_OCCUPATION_LABELS, CIVIL_SERVICE_OCCUPATIONS } from '@broker/tariff-engine';

/** The calculation service's OpenAPI 3.0 description, at the spec's path. */
export const CALC_OPENAPI: OpenApiSettings & { path: string } = {
  path: '/api/doc/v1/swagger.json',
  pathPrefix: '/api',
  title: 'Broker platform: calculation service (area B)',
  version: 'v1',
  description:
    'Calculation for comparison calculators. POST /api/login gives a JWT; every calculation sends it as ' +
    '`Authorization: Bearer <JWT>` (the misspelled `Authorisation` header is accepted too). Errors: ' +
    '{name, message, code, status}, under overload with 503 and Retry-After (seconds). Money: decimal strings ' +
    'with two decimals and a currency.',
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  security: [{ bearer: [] }],
  publicOperations: ['login', 'jwks'],
  servers: [{ url: '/api', description: 'The calculation service' }],
  errors: apiErrors({ 400: 'The request is invalid (every failing field named)' }),
  schemas: {
    [CIVIL_SERVICE_OCCUPATION_SCHEMA]: {
      type: 'string',
      enum: [...CIVIL_SERVICE_OCCUPATIONS],
      description: `Occupations a service-liability add-on can be asked for: ${CIVIL_SERVICE_OCCUPATIONS.map((id) => `${id} (${CIVIL_SERVICE_OCCUPATION_LABELS[id]})`).join(', ')}`,
    },
  },
};
