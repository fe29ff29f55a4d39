import { baseEnvShape, ConfigError, env, loadConfig } from '@broker/config';

export const brokerEnvShape = {
  ...baseEnvShape,
  PORT: env.port(3003),
  REDIS_URL: env.redisUrl(),
  /** Prefix of this service's keys in Redis (nonces, the notification queue); tests give each file its own. */
  BROKER_REDIS_PREFIX: env.text('broker:'),
  API_KEY_ENCRYPTION_KEY: env.encryptionKey(),
  SMTP_URL: env.text('smtp://127.0.0.1:1025'),
  MAIL_FROM: env.text('Maklerportal <no-reply@broker-platform.local>'),
  SMS_GATEWAY_URL: env.text('http://127.0.0.1:1026/sms'),
  /**
   * Where customers reach this service's customer pages (the gateway's customer-facing host in a deployment, which
   * may differ from the host portals call the API at): the base of the links in messages.
   */
  CUSTOMER_BASE_URL: env.text('http://localhost:3003'),
  NOTIFY_SWEEP_INTERVAL_MS: env.positiveInt(60_000),
  /** Signing page requests per client address and window (a fixed window in Redis). */
  SIGNING_RATE_LIMIT: env.positiveInt(30),
  SIGNING_RATE_WINDOW_SECONDS: env.positiveInt(60),
  /** Password page requests per client address and window (each submit is an argon2id hash). */
  PASSWORD_PAGE_RATE_LIMIT: env.positiveInt(10),
  PASSWORD_PAGE_RATE_WINDOW_SECONDS: env.positiveInt(60),
  TRUSTED_PROXIES: env.trustedProxies(),
  /**
   * Connections of the search pool (beside the service's pool of 10): searches at once in PostgreSQL, per process.
   * Two: with four, a burst of searches held PostgreSQL's two cores and getKunde's p95 rose to 3.8 times its idle
   * value (2.3 times with two; bench/README.md, 2026-11-28). Raise it with the database's cores.
   */
  SEARCH_CONNECTIONS: env.positiveInt(2),
  /**
   * Searches waiting for one of the SEARCH_CONNECTIONS places (taken before any of their work), and how long each
   * waits; a search beyond them, or waiting longer, is answered 503 with Retry-After.
   */
  SEARCH_QUEUE_LENGTH: env.positiveInt(256),
  SEARCH_QUEUE_WAIT_MS: env.positiveInt(3000),
  /** Multi-call limits: parts per batch, bytes per part body, bytes of the whole request. */
  MULTICALL_MAX_PARTS: env.positiveInt(100),
  MULTICALL_MAX_PART_BYTES: env.positiveInt(1024 * 1024),
  MULTICALL_MAX_REQUEST_BYTES: env.positiveInt(10 * 1024 * 1024),
};

export type BrokerConfig = ReturnType<typeof loadBrokerConfig>;

export function loadBrokerConfig() {
  return loadConfig(brokerEnvShape, () => {
    // The variable's name until 2026-11; its old name must not be ignored silently (links would name localhost).
    if (process.env.PORTAL_BASE_URL)
      throw new ConfigError('PORTAL_BASE_URL is now called CUSTOMER_BASE_URL: set that variable instead');
  });
}
