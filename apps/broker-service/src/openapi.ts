import type { OpenApiDocumentSettings, OpenApiSettings } from '@broker/platform';

/** The header group of area C and the error body, the same for both interfaces. */
const AREA_C: Pick<OpenApiSettings, 'version' | 'securitySchemes' | 'security'> = {
  version: 'v1',
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

const CONVENTIONS =
  'Every operation needs the header group X-Svc-Api-Id with either X-Svc-Timestamp, X-Svc-Nonce and ' +
  'X-Svc-Digest = hex sha1(nonce + timestamp + apiKey), or X-Svc-Otp (RFC 6238, SHA-1, 8 digits, 30 s). ' +
  'Errors: {"Meldungen": [...]}, under overload with 503 and Retry-After (seconds). POST on the base path is the ' +
  'multi-call (multipart/related, one call per part).';

/** The employee service's OpenAPI 3 description: GET /service/{tenant}/employee/v1/rest/openapi.json. */
export const EMPLOYEE_OPENAPI: OpenApiDocumentSettings = {
  ...AREA_C,
  path: '/service/:tenant/employee/v1/rest/openapi.json',
  pathPrefix: '/service/{tenant}/employee/v1/rest',
  title: 'Broker platform: employee service (area C)',
  description:
    `Customer management for brokers' employees. ${CONVENTIONS} Dates: YYYY-MM-DD; date-times ` +
    'YYYY-MM-DDTHH:mm:ss in Europe/Berlin (X-Svc-Timezone states another zone for input). An archive entry ' +
    'whose document this service stores (the Maklervollmacht a customer signed on the signing page) carries ' +
    'Dokument.Uri, its download: GET .../archiveintraege/{Id}/dokument (application/pdf).',
};

/** The broker service's OpenAPI 3 description: GET /service/{tenant}/broker/v1/rest/openapi.json. */
export const BROKER_OPENAPI: OpenApiDocumentSettings = {
  ...AREA_C,
  path: '/service/:tenant/broker/v1/rest/openapi.json',
  pathPrefix: '/service/{tenant}/broker/v1/rest',
  title: 'Broker platform: broker service (area C)',
  description: `Sub-broker editing and lists for brokers. ${CONVENTIONS}`,
};
