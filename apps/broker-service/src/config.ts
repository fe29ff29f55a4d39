import { baseEnvShape, env, loadConfig } from '@broker/config';

export const brokerEnvShape = {
  ...baseEnvShape,
  PORT: env.port(3003),
  REDIS_URL: env.redisUrl(),
  /** Prefix of this service's keys in Redis (nonces); tests give each file its own. */
  BROKER_REDIS_PREFIX: env.text('broker:'),
  API_KEY_ENCRYPTION_KEY: env.encryptionKey(),
};

export type BrokerConfig = ReturnType<typeof loadBrokerConfig>;

export function loadBrokerConfig() {
  return loadConfig(brokerEnvShape);
}
