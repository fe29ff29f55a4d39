import { apiErrors, RESPONSE_SCHEMAS } from '@broker/contracts';
import {
  type CallbackOperation,
  type OpenApiDocumentSettings,
  wwwAuthenticateHeader,
} from '@broker/platform';
import { DELIVERY_TIMEOUT_MS } from './webhooks/webhook-sender.js';
import type { ImportConfig } from './config.js';

/** How a delivery reaches the endpoint: the registration's callback in the document. */
const DELIVERY: CallbackOperation = {
  operationId: 'deliverImportEvent',
  summary: 'A delivery: one event, signed per Standard Webhooks 1.0',
  parameters: [
    {
      name: 'webhook-id',
      in: 'header',
      required: true,
      description: 'The same on every attempt of one delivery',
      schema: { type: 'string' },
    },
    {
      name: 'webhook-timestamp',
      in: 'header',
      required: true,
      description: 'When this attempt was sent (epoch seconds)',
      schema: { type: 'integer' },
    },
    {
      name: 'webhook-signature',
      in: 'header',
      required: true,
      description:
        '`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated (two while a rotated secret is valid)',
      schema: { type: 'string' },
    },
  ],
  requestBody: {
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ImportWebhookEvent' } } },
  },
  responses: {
    '2XX': {
      description: `Received. Any other answer, or none within ${DELIVERY_TIMEOUT_MS / 1000} s, is retried (docs/import-events.md)`,
    },
  },
};

/**
 * The import service's OpenAPI 3.0 description (the spec names no path for it): GET /api/v1/openapi.json. Its
 * security scheme names the deployment's token endpoint (IMPORT_OAUTH_TOKEN_URL).
 */
export function importOpenApi(config: Pick<ImportConfig, 'IMPORT_OAUTH_TOKEN_URL'>): OpenApiDocumentSettings {
  return {
    path: '/api/v1/openapi.json',
    pathPrefix: '/api/v1',
    title: 'Broker platform: import service (area A)',
    version: 'v1',
    description:
      'Imports of GDV and CSV files into the inventory. Every operation needs an OAuth 2.0 access token (JWT) of ' +
      'the authorization server with the scope service.imports, sent as `Authorization: Bearer <token>`; service ' +
      'accounts get one by the client-credentials grant. Errors: {name, message, code, status}, under overload ' +
      'with 503 and Retry-After (seconds). Times: integer epoch seconds.',
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        description:
          'A JWT access token signed by the authorization server (issuer and audience as configured), with the ' +
          'claims `scope` (containing service.imports), `tenant` (the tenant code), `broker_id` (the broker ' +
          'number the caller acts for) and `exp`; a user token has `sub`, a service account token `client_id` ' +
          '(and no other `sub`).',
        flows: {
          clientCredentials: {
            tokenUrl: config.IMPORT_OAUTH_TOKEN_URL,
            scopes: { 'service.imports': 'Upload files and read import processes' },
          },
        },
      },
    },
    security: [{ oauth2: ['service.imports'] }],
    callbacks: { createWebhookEndpoint: { importEvent: { '{$request.body#/url}': { post: DELIVERY } } } },
    schemas: RESPONSE_SCHEMAS,
    servers: [{ url: '/api/v1', description: 'The import service' }],
    errors: {
      ...apiErrors({
        400: 'The request is invalid (every failing field named)',
        401: 'No valid access token',
        403: 'The token lacks the scope service.imports, or names a broker the caller may not act for',
        404: 'No such import process of the caller’s broker',
        413: 'The upload is larger than IMPORT_MAX_UPLOAD_BYTES',
      }),
      // A missing scope is challenged; a broker the caller may not act for is not a token problem.
      headers: {
        401: { 'WWW-Authenticate': wwwAuthenticateHeader(true) },
        403: { 'WWW-Authenticate': wwwAuthenticateHeader(false) },
      },
    },
  };
}
