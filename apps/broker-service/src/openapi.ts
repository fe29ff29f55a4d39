import { RESPONSE_SCHEMAS } from '@broker/contracts';
import { type OpenApiDocumentSettings, type OpenApiSettings, RETRY_AFTER_HEADER } from '@broker/platform';
import { PATH_ID_PATTERNS } from './employee/ids.js';

/** The header group of area C, its error body and its path conventions, the same for both interfaces. */
const AREA_C: Pick<
  OpenApiSettings,
  'version' | 'securitySchemes' | 'security' | 'schemas' | 'serverVariables' | 'errors' | 'headerParameters'
> = {
  version: '1.0',
  securitySchemes: {
    apiId: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Svc-Api-Id',
      description: 'The id of the API client; it acts for its broker, whose employee {ma} must be',
    },
    timestamp: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Svc-Timestamp',
      description:
        'The time of the request, at most 30 s from the server clock: ISO 8601 with an offset, or ' +
        'YYYY-MM-DDTHH:mm:ss in Europe/Berlin (or the zone of X-Svc-Timezone)',
    },
    nonce: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Svc-Nonce',
      description: '40 lower-case hex characters, fresh for every request (a nonce is accepted once)',
    },
    digest: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Svc-Digest',
      description: 'Lower-case hex sha1(nonce + timestamp + apiKey) over the header values exactly as sent',
    },
    otp: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Svc-Otp',
      description:
        "Instead of timestamp, nonce and digest: the RFC 6238 TOTP of the API key's UTF-8 bytes " +
        '(SHA-1, 8 digits, 30 s step, one step of tolerance)',
    },
  },
  headerParameters: [
    {
      name: 'X-Svc-Timezone',
      in: 'header',
      required: false,
      description:
        'The IANA time zone (e.g. America/New_York) in which input date-times without an offset are read; ' +
        'default Europe/Berlin. Output stays in Europe/Berlin.',
      schema: { type: 'string', example: 'Europe/Berlin' },
    },
  ],
  security: [
    { apiId: [], timestamp: [], nonce: [], digest: [] },
    { apiId: [], otp: [] },
  ],
  serverVariables: { tenant: { default: 'demo', description: 'The tenant (broker pool) code' } },
  schemas: RESPONSE_SCHEMAS,
  errors: {
    schema: 'Meldungen',
    statuses: {
      400: 'The request or its header group is invalid (every problem named)',
      403: 'The API client, its broker or the employee is blocked',
      404: 'No such object for this caller (another broker’s object included), or an unknown API id',
      413: 'The body is larger than allowed (JSON 1 MiB; the multi-call limits)',
      429: 'Too many wrong one-time passwords of the API id: OTP proofs are refused until Retry-After (the digest is not)',
      503: 'Overloaded: try again after Retry-After seconds',
    },
    headers: { 429: { 'Retry-After': RETRY_AFTER_HEADER } },
  },
};

/** The base paths of an interface of area C: the spec's version 1.0 and its alias v1. */
const servers = (service: 'employee' | 'broker', what: string) => [
  {
    url: `/service/{tenant}/${service}/1.0/rest`,
    description: `The ${what} (the spec's interface version 1.0)`,
  },
  { url: `/service/{tenant}/${service}/v1/rest`, description: `The ${what} (v1, the same interface)` },
];

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
  servers: servers('employee', 'employee service'),
  pathParameters: {
    ma: { description: 'The employee code (of the API client’s broker)', example: '01_01' },
    ...Object.fromEntries(
      Object.entries(PATH_ID_PATTERNS).map(([name, pattern]) => [
        name,
        { schema: { type: 'string', pattern: pattern.source } },
      ]),
    ),
  },
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
  servers: servers('broker', 'broker service'),
  title: 'Broker platform: broker service (area C)',
  description: `Sub-broker editing and lists for brokers. ${CONVENTIONS}`,
};
