import { baseEnvShape, env, loadConfig } from '@broker/config';
import { DEMO_PRIVATE_LIABILITY_CATALOG_PATH } from '@broker/tariff-engine';

export const calcEnvShape = {
  ...baseEnvShape,
  PORT: env.port(3002),
  /** PKCS#8 PEM of the RSA key login tokens are signed with (`openssl genpkey -algorithm RSA`). */
  CALC_JWT_PRIVATE_KEY: env.requiredText(),
  CALC_JWT_KEY_ID: env.text('calc-1'),
  CALC_JWT_ISSUER: env.text('broker-platform-calc'),
  CALC_TOKEN_TTL_SECONDS: env.positiveInt(3600),
  /** A token of a user deleted or disabled is refused within this many seconds (each user's state is read once). */
  CALC_USER_STATUS_SECONDS: env.positiveInt(30),
  /** Failed logins of one user name from one address within the window before further attempts get a 429. */
  CALC_LOGIN_MAX_FAILURES: env.positiveInt(5),
  CALC_LOGIN_WINDOW_SECONDS: env.positiveInt(900),
  /** The broker service's setting: proxies whose X-Forwarded-For names the client address of a login. */
  TRUSTED_PROXIES: env.trustedProxies(),
  /** The private-liability tariff catalog (JSON, validated at boot); the shipped demo catalog by default. */
  CALC_PRIVATE_LIABILITY_CATALOG: env.text(DEMO_PRIVATE_LIABILITY_CATALOG_PATH),
  /** Answers remembered for requests sent again on the same day (about 32 KB each with the demo catalog); 0 disables. */
  CALC_ANSWER_CACHE_ENTRIES: env.nonNegativeInt(1000),
};

export type CalcConfig = ReturnType<typeof loadCalcConfig>;

export function loadCalcConfig() {
  return loadConfig(calcEnvShape);
}
