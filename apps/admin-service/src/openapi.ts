import { apiErrors, RESPONSE_SCHEMAS } from '@broker/contracts';
import { type OpenApiDocumentSettings, wwwAuthenticateHeader } from '@broker/platform';
import type { AdminConfig } from './config.js';
import { OPERATOR_SCOPE, TENANT_ADMIN_SCOPE } from './auth/admin-principal.js';

/** The administration service's OpenAPI 3.0 description (beyond the spec): GET /admin/v1/openapi.json. */
export function adminOpenApi(config: Pick<AdminConfig, 'ADMIN_OAUTH_TOKEN_URL'>): OpenApiDocumentSettings {
  return {
    path: '/admin/v1/openapi.json',
    pathPrefix: '/admin/v1',
    title: 'Broker platform: administration (extension)',
    version: 'v1',
    description:
      'Beyond the specification: how a broker pool onboards tenants, brokers, employees, API clients of area C, ' +
      'calculation users of area B, insurers and agreements, copies its master data in bulk, reads the audit ' +
      'trail, and runs the platform day to day: failed or stuck imports (retry, cancel), failing webhook endpoints ' +
      '(enable, redeliver) and customer messages waiting in the outbox (resend). Every operation needs an OAuth 2.0 access token (JWT) of the authorization server: scope ' +
      `${OPERATOR_SCOPE} administers every tenant (and only it creates tenants), scope ${TENANT_ADMIN_SCOPE} with ` +
      'the claim `tenant` administers that tenant only (another tenant is a 404). An import token is never an ' +
      'administration token. Every write is recorded in the audit trail with its actor; keys and passwords never ' +
      'are, and a key is shown only in the answer that made it. Errors: {name, message, code, status}, under ' +
      'overload with 503 and Retry-After (seconds). Times: RFC 3339 in UTC.',
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        description:
          'A JWT access token signed by the authorization server (issuer and audience as configured), with `scope` ' +
          `containing ${OPERATOR_SCOPE} or ${TENANT_ADMIN_SCOPE} (then also the claim \`tenant\`), \`sub\` or ` +
          '`client_id`, and `exp`.',
        flows: {
          clientCredentials: {
            tokenUrl: config.ADMIN_OAUTH_TOKEN_URL,
            scopes: {
              [OPERATOR_SCOPE]: 'Administer every tenant of the pool and create tenants',
              [TENANT_ADMIN_SCOPE]: 'Administer the tenant of the token’s `tenant` claim',
            },
          },
        },
      },
    },
    security: [{ oauth2: [OPERATOR_SCOPE] }, { oauth2: [TENANT_ADMIN_SCOPE] }],
    schemas: RESPONSE_SCHEMAS,
    servers: [{ url: '/admin/v1', description: 'The administration service' }],
    pathParameters: {
      tenant: { description: 'The tenant’s id (its code)', example: 'demo' },
    },
    errors: {
      ...apiErrors({
        400: 'The request is invalid (every failing field named)',
        401: 'No valid administration token',
        403: 'The token lacks the scope the operation needs',
        404: 'No such tenant, or no such object of the tenant',
        413: 'The body is larger than the limit (a master-data file: ADMIN_MASTER_DATA_MAX_BYTES)',
      }),
      headers: {
        401: { 'WWW-Authenticate': wwwAuthenticateHeader(true) },
        403: { 'WWW-Authenticate': wwwAuthenticateHeader(true) },
      },
    },
  };
}
