import { baseEnvShape, env, loadConfig } from '@broker/config';

export const brokerEnvShape = { ...baseEnvShape, PORT: env.port(3003), REDIS_URL: env.redisUrl() };

export type BrokerConfig = ReturnType<typeof loadBrokerConfig>;

export function loadBrokerConfig() {
  return loadConfig(brokerEnvShape);
}
