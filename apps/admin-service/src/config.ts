import { baseEnvShape, env, loadConfig, requireOneOf } from '@broker/config';

export const adminEnvShape = {
  ...baseEnvShape,
  PORT: env.port(3005),
  /** The authorization server whose tokens administer (scope platform.admin or platform.operator). */
  ADMIN_OAUTH_ISSUER: env.requiredText(),
  ADMIN_OAUTH_AUDIENCE: env.requiredText(),
  ADMIN_OAUTH_JWKS_URL: env.httpUrl(),
  ADMIN_OAUTH_PUBLIC_KEY: env.optionalText(),
  ADMIN_OAUTH_ALGORITHMS: env.list(['RS256']),
  /** Keys read from the JWKS are used this long before it is read again: a removed key's bound. */
  ADMIN_OAUTH_JWKS_MAX_AGE_SECONDS: env.positiveInt(300),
  /** The token endpoint the OpenAPI document names for the client-credentials grant (the service never calls it). */
  ADMIN_OAUTH_TOKEN_URL: env.text('/oauth/token'),
  /** The key API keys are stored under (as the broker service reads them): 32 bytes, base64. */
  API_KEY_ENCRYPTION_KEY: env.encryptionKey(),
  /** Largest master-data file (text/csv) in bytes. */
  ADMIN_MASTER_DATA_MAX_BYTES: env.positiveInt(16 * 1024 * 1024),
  /** Proxies whose X-Forwarded-For names the client (the gateway): the address the audit trail records. */
  TRUSTED_PROXIES: env.trustedProxies(),
};

export type AdminConfig = ReturnType<typeof loadAdminConfig>;

export function checkAdminConfig(config: Record<string, unknown>): void {
  requireOneOf(config, ['ADMIN_OAUTH_JWKS_URL', 'ADMIN_OAUTH_PUBLIC_KEY']);
}

export function loadAdminConfig() {
  return loadConfig(adminEnvShape, checkAdminConfig);
}
