import { baseEnvShape, env, loadConfig } from '@broker/config';

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
  PORTAL_BASE_URL: env.text('http://localhost:8080'),
  NOTIFY_SWEEP_INTERVAL_MS: env.positiveInt(60_000),
  /** Multi-call limits: parts per batch, bytes per part body, bytes of the whole request. */
  MULTICALL_MAX_PARTS: env.positiveInt(100),
  MULTICALL_MAX_PART_BYTES: env.positiveInt(1024 * 1024),
  MULTICALL_MAX_REQUEST_BYTES: env.positiveInt(10 * 1024 * 1024),
};

export type BrokerConfig = ReturnType<typeof loadBrokerConfig>;

export function loadBrokerConfig() {
  return loadConfig(brokerEnvShape);
}
