import type { OpenApiDocumentSettings } from '@broker/platform';

/** The import service's OpenAPI 3.0 description (the spec names no path for it): GET /api/v1/openapi.json. */
export const IMPORT_OPENAPI: OpenApiDocumentSettings = {
  path: '/api/v1/openapi.json',
  pathPrefix: '/api/v1',
  title: 'Broker platform: import service (area A)',
  version: 'v1',
  description:
    'Imports of GDV and CSV files into the inventory. Every operation needs an OAuth 2.0 access token of the ' +
    'authorization server with the scope service.imports, sent as `Authorization: Bearer <token>` (service ' +
    'accounts included). Errors: {name, message, code, status}, under overload with 503 and Retry-After ' +
    '(seconds). Times: integer epoch seconds.',
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'OAuth 2.0 access token with the scope service.imports',
    },
  },
  security: [{ bearer: [] }],
};
