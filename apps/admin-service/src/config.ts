import { baseEnvShape, ConfigError, env, loadConfig, requireOneOf } from '@broker/config';

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
  /**
   * The import pipeline's Redis and its queues' prefix (the import service's IMPORT_QUEUE_PREFIX): an operator's retry
   * or cancellation is put on its queue at once. Without it the pipeline's sweeper takes the process up once it has
   * sat idle for IMPORT_STAGE_IDLE_MS.
   */
  REDIS_URL: env.redisUrl().optional(),
  IMPORT_QUEUE_PREFIX: env.text('bull'),
  /** The broker service's BROKER_REDIS_PREFIX: the console's queue board shows its queue of customer messages. */
  BROKER_REDIS_PREFIX: env.text('broker:'),
  /** The operator console (/admin/console/): the OpenID provider people log in at (its discovery document's issuer). */
  ADMIN_CONSOLE_OIDC_ISSUER: env.httpUrl(),
  /** The console as a confidential client of that provider. */
  ADMIN_CONSOLE_CLIENT_ID: env.optionalText(),
  ADMIN_CONSOLE_CLIENT_SECRET: env.optionalText(),
  /** The console's address as browsers reach it (through the gateway), e.g. https://admin.example.com/admin/console. */
  ADMIN_CONSOLE_BASE_URL: env.httpUrl(),
  /** At least 32 characters: the key the console's tokens are stored under and its CSRF tokens are signed with. */
  ADMIN_SESSION_SECRET: env.optionalText(),
  /** The resource indicator the console asks tokens for; the administration's audience unless set. */
  ADMIN_CONSOLE_OIDC_RESOURCE: env.optionalText(),
  /** A console session ends this long after login, and after this long without a request. */
  ADMIN_CONSOLE_SESSION_HOURS: env.positiveInt(8),
  ADMIN_CONSOLE_IDLE_MINUTES: env.positiveInt(30),
};

/** The console's variables: all of them set (the console is served) or none (it answers 404). */
export const CONSOLE_VARIABLES = [
  'ADMIN_CONSOLE_OIDC_ISSUER',
  'ADMIN_CONSOLE_CLIENT_ID',
  'ADMIN_CONSOLE_CLIENT_SECRET',
  'ADMIN_CONSOLE_BASE_URL',
  'ADMIN_SESSION_SECRET',
] as const;

const MIN_SESSION_SECRET_LENGTH = 32;

/** Plain http is for a console and a provider on this machine only (development); anywhere else, https. */
function isLoopbackOrHttps(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}

function checkConsoleConfig(config: Record<string, unknown>): void {
  const missing = CONSOLE_VARIABLES.filter((name) => config[name] === undefined);
  if (missing.length === CONSOLE_VARIABLES.length) return;
  if (missing.length > 0)
    throw new ConfigError(`The console needs ${missing.join(', ')} as well (or none of its variables)`);
  if (String(config.ADMIN_SESSION_SECRET).length < MIN_SESSION_SECRET_LENGTH)
    throw new ConfigError(`ADMIN_SESSION_SECRET must be at least ${MIN_SESSION_SECRET_LENGTH} characters`);
  for (const name of ['ADMIN_CONSOLE_OIDC_ISSUER', 'ADMIN_CONSOLE_BASE_URL'])
    if (!isLoopbackOrHttps(String(config[name])))
      throw new ConfigError(`${name} must be an https:// URL (http:// only on localhost or 127.0.0.1)`);
}

export type AdminConfig = ReturnType<typeof loadAdminConfig>;

export function checkAdminConfig(config: Record<string, unknown>): void {
  requireOneOf(config, ['ADMIN_OAUTH_JWKS_URL', 'ADMIN_OAUTH_PUBLIC_KEY']);
  checkConsoleConfig(config);
}

export function loadAdminConfig() {
  return loadConfig(adminEnvShape, checkAdminConfig);
}
