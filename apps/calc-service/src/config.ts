import { baseEnvShape, env, loadConfig } from '@broker/config';

export const calcEnvShape = { ...baseEnvShape, PORT: env.port(3002) };

export type CalcConfig = ReturnType<typeof loadCalcConfig>;

export function loadCalcConfig() {
  return loadConfig(calcEnvShape);
}
