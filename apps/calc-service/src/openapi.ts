import { apiErrors, CIVIL_SERVICE_OCCUPATION_SCHEMA } from '@broker/contracts';
import type { OpenApiSettings } from '@broker/platform';
import { CIVIL_SERVICE_OCCUPATION_LABELS, CIVIL_SERVICE_OCCUPATIONS } from '@broker/tariff-engine';

/** The security scheme of the misspelled `Authorisation` header the spec's example sends. */
export const AUTHORISATION_SCHEME = 'authorisation';
/** The schema of the JWKS answer. */
export const JWKS_SCHEMA = 'JsonWebKeySet';

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
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    [AUTHORISATION_SCHEME]: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorisation',
      description: 'The spec example’s spelling of Authorization, with the same value: `Bearer <JWT>`',
    },
  },
  security: [{ bearer: [] }, { [AUTHORISATION_SCHEME]: [] }],
  publicOperations: ['login', 'jwks'],
  servers: [{ url: '/api', description: 'The calculation service' }],
  errors: apiErrors({ 400: 'The request is invalid (every failing field named)' }),
  schemas: {
    [JWKS_SCHEMA]: {
      type: 'object',
      description: 'A JSON Web Key Set (RFC 7517): the public keys login tokens are signed for',
      required: ['keys'],
      properties: {
        keys: {
          type: 'array',
          items: {
            type: 'object',
            required: ['kty', 'kid', 'alg', 'use', 'n', 'e'],
            properties: {
              kty: { type: 'string', enum: ['RSA'] },
              kid: { type: 'string', description: 'The key id a token names in its header' },
              alg: { type: 'string', enum: ['RS256'] },
              use: { type: 'string', enum: ['sig'] },
              n: { type: 'string', description: 'Modulus (base64url)' },
              e: { type: 'string', description: 'Exponent (base64url)' },
            },
          },
        },
      },
    },
    [CIVIL_SERVICE_OCCUPATION_SCHEMA]: {
      type: 'string',
      enum: [...CIVIL_SERVICE_OCCUPATIONS],
      description: `Occupations a service-liability add-on can be asked for: ${CIVIL_SERVICE_OCCUPATIONS.map((id) => `${id} (${CIVIL_SERVICE_OCCUPATION_LABELS[id]})`).join(', ')}`,
    },
  },
};
