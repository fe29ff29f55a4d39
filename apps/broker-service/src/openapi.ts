import type { OpenApiSettings } from '@broker/platform';

/** The employee service's OpenAPI 3 description: GET /service/{tenant}/employee/v1/rest/openapi.json. */
export const EMPLOYEE_OPENAPI: OpenApiSettings & { path: string } = {
  path: '/service/:tenant/employee/v1/rest/openapi.json',
  pathPrefix: '/service/{tenant}/employee/v1/rest',
  title: 'Broker platform: employee service (area C)',
  version: 'v1',
  description:
    "Customer management for brokers' employees. Every operation needs the header group X-Svc-Api-Id with " +
    'either X-Svc-Timestamp, X-Svc-Nonce and X-Svc-Digest = hex sha1(nonce + timestamp + apiKey), or X-Svc-Otp ' +
    '(RFC 6238, SHA-1, 8 digits, 30 s). Errors: {"Meldungen": [...]}. Dates: YYYY-MM-DD; date-times ' +
    'YYYY-MM-DDTHH:mm:ss in Europe/Berlin (X-Svc-Timezone states another zone for input).',
  securitySchemes: {
    apiId: { type: 'apiKey', in: 'header', name: 'X-Svc-Api-Id' },
    timestamp: { type: 'apiKey', in: 'header', name: 'X-Svc-Timestamp' },
    nonce: { type: 'apiKey', in: 'header', name: 'X-Svc-Nonce' },
    digest: { type: 'apiKey', in: 'header', name: 'X-Svc-Digest' },
    otp: { type: 'apiKey', in: 'header', name: 'X-Svc-Otp' },
  },
  security: [
    { apiId: [], timestamp: [], nonce: [], digest: [] },
    { apiId: [], otp: [] },
  ],
};
