import { baseEnvShape, env, loadConfig, requireOneOf } from '@broker/config';

/** The worker's variables; the API reads these too. */
export const importWorkerEnvShape = {
  ...baseEnvShape,
  PORT: env.port(3004),
  REDIS_URL: env.redisUrl(),
  IMPORT_STORAGE_DIR: env.requiredText(),
  IMPORT_QUEUE_PREFIX: env.text('bull'),
  IMPORT_SWEEP_INTERVAL_MS: env.positiveInt(30_000),
  IMPORT_STAGE_IDLE_MS: env.positiveInt(120_000),
  IMPORT_RETENTION_DAYS: env.positiveInt(90),
  IMPORT_WORKER_CONCURRENCY: env.positiveInt(4),
  IMPORT_STAGE_LOCK_MS: env.positiveInt(30_000),
  /** How long a stage waits out a database that is out of reach before its import fails. */
  IMPORT_DB_OUTAGE_BUDGET_MS: env.positiveInt(10 * 60 * 1000),
  /** The longest wait between two tries of a stage that failed for a technical fault. */
  IMPORT_RETRY_MAX_DELAY_MS: env.positiveInt(30_000),
  /** Webhooks (extension): the key the endpoints' signing secrets are stored under (32 bytes, base64). */
  IMPORT_WEBHOOK_ENCRYPTION_KEY: env.encryptionKey(),
  /** Host names and CIDR ranges webhooks may go to although loopback, link-local or private. */
  WEBHOOK_ALLOWED_HOSTS: env.list([]),
  /** Development only: endpoints by plain http. */
  IMPORT_WEBHOOK_ALLOW_HTTP: env.flag(false),
  IMPORT_WEBHOOK_RETRY_BASE_MS: env.positiveInt(5_000),
  IMPORT_WEBHOOK_RETRY_MAX_MS: env.positiveInt(60 * 60 * 1000),
  IMPORT_WEBHOOK_DISABLE_AFTER_HOURS: env.positiveInt(72),
  IMPORT_WEBHOOK_DISPATCH_MS: env.positiveInt(1_000),
};

/** The API's variables: the worker's plus the OAuth resource server and the upload limit. */
export const importEnvShape = {
  ...importWorkerEnvShape,
  PORT: env.port(3001),
  IMPORT_OAUTH_ISSUER: env.requiredText(),
  IMPORT_OAUTH_AUDIENCE: env.requiredText(),
  IMPORT_OAUTH_JWKS_URL: env.httpUrl(),
  IMPORT_OAUTH_PUBLIC_KEY: env.optionalText(),
  IMPORT_OAUTH_ALGORITHMS: env.list(['RS256']),
  /** Keys read from the JWKS are used this long before it is read again: a removed key's bound. */
  IMPORT_OAUTH_JWKS_MAX_AGE_SECONDS: env.positiveInt(300),
  /** The token endpoint the OpenAPI document names for the client-credentials grant (the service never calls it). */
  IMPORT_OAUTH_TOKEN_URL: env.text('/oauth/token'),
  IMPORT_MAX_UPLOAD_BYTES: env.positiveInt(200 * 1024 * 1024),
  /** Event streams (GET /api/v1/processes/{id}/events): heartbeat, history poll, and streams per process at once. */
  IMPORT_EVENTS_HEARTBEAT_MS: env.positiveInt(15_000),
  IMPORT_EVENTS_POLL_MS: env.positiveInt(5_000),
  IMPORT_EVENT_STREAMS_MAX: env.positiveInt(1_000),
  /** Dry runs (POST /api/v1/import?dry_run=true) up to this size answer at once, at most this many at a time. */
  IMPORT_DRY_RUN_SYNC_MAX_BYTES: env.positiveInt(10 * 1024 * 1024),
  IMPORT_DRY_RUNS_AT_ONCE: env.positiveInt(2),
};

export type ImportConfig = ReturnType<typeof loadImportConfig>;
export type ImportWorkerConfig = ReturnType<typeof loadImportWorkerConfig>;

export function checkImportConfig(config: Record<string, unknown>): void {
  requireOneOf(config, ['IMPORT_OAUTH_JWKS_URL', 'IMPORT_OAUTH_PUBLIC_KEY']);
}

export function loadImportConfig() {
  return loadConfig(importEnvShape, checkImportConfig);
}

export function loadImportWorkerConfig() {
  return loadConfig(importWorkerEnvShape);
}
