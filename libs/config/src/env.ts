import proxyaddr from 'proxy-addr';
import { z } from 'zod';

/** A configuration problem, described in one line that names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Building blocks of the apps' environment schemas. Each app composes the ones it reads. */
export const env = {
  port: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a TCP port number' })
      .int('must be a TCP port number')
      .min(1, 'must be a TCP port number (1-65535)')
      .max(65535, 'must be a TCP port number (1-65535)')
      .default(fallback),
  postgresUrl: () =>
    z
      .string({ error: 'is required (a postgres:// connection URL)' })
      .min(1, 'is required (a postgres:// connection URL)')
      .refine(
        (value) => hasProtocol(value, ['postgres:', 'postgresql:']),
        'must be a postgres:// connection URL',
      ),
  redisUrl: () =>
    z
      .string({ error: 'is required (a redis:// connection URL)' })
      .min(1, 'is required (a redis:// connection URL)')
      .refine((value) => hasProtocol(value, ['redis:', 'rediss:']), 'must be a redis:// or rediss:// URL'),
  logLevel: () => z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  positiveInt: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a positive integer' })
      .int('must be a positive integer')
      .positive('must be a positive integer')
      .default(fallback),
  nonNegativeInt: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a whole number, 0 or more' })
      .int('must be a whole number, 0 or more')
      .min(0, 'must be a whole number, 0 or more')
      .default(fallback),
  /** A 32-byte key, base64-encoded (`openssl rand -base64 32`), returned as bytes. */
  encryptionKey: () =>
    z
      .string({ error: 'is required (32 random bytes, base64: openssl rand -base64 32)' })
      .refine(
        (value) => Buffer.from(value, 'base64').length === 32,
        'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
      )
      .transform((value) => Buffer.from(value, 'base64')),
  text: (fallback: string) => z.string().min(1, 'must not be empty').default(fallback),
  /** `true` or `false`. */
  flag: (fallback: boolean) =>
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true'),
  optionalText: () => z.string().min(1, 'must not be empty').optional(),
  requiredText: () => z.string({ error: 'is required' }).min(1, 'is required'),
  httpUrl: () =>
    z
      .string()
      .refine((value) => hasProtocol(value, ['http:', 'https:']), 'must be an http:// or https:// URL')
      .optional(),
  list: (fallback: string[]) =>
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
      )
      .default(fallback),
  /**
   * Proxies whose X-Forwarded-For is believed when telling client addresses apart (proxy-addr notation:
   * addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`). In development the gateway on this machine
   * (`loopback`); production configuration names its gateway (PRODUCTION_NAMED): a private range would let anyone
   * who reaches a service from it name any client address.
   */
  trustedProxies: () =>
    env
      .list(['loopback'])
      .refine(isProxyList, 'must be IP addresses, CIDR ranges, loopback, linklocal or uniquelocal'),
};

function isProxyList(entries: string[]): boolean {
  try {
    proxyaddr.compile(entries);
    return true;
  } catch {
    return false;
  }
}

function hasProtocol(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** How long a request waits for a free database connection unless DB_POOL_WAIT_MS says otherwise. */
export const DEFAULT_DB_POOL_WAIT_MS = 2_000;

/** The variables every process reads. */
export const baseEnvShape = {
  DATABASE_URL: env.postgresUrl(),
  /** How long a request waits for a free database connection before it is refused (503 with Retry-After). */
  DB_POOL_WAIT_MS: env.positiveInt(DEFAULT_DB_POOL_WAIT_MS),
  HOST: env.text('0.0.0.0'),
  LOG_LEVEL: env.logLevel(),
  SHUTDOWN_TIMEOUT_MS: env.positiveInt(10_000),
};

/**
 * Validates the environment against a schema and returns the typed configuration.
 * Empty strings count as unset, so `PORT=` falls back to the default like a missing PORT.
 * The error message names the first failing variable and never echoes its value (it may be a secret).
 */
/** Variables whose development default does not do in production (NODE_ENV=production): they must be set. */
const PRODUCTION_NAMED: Record<string, string> = {
  TRUSTED_PROXIES: "is required with NODE_ENV=production: the gateway's addresses or ranges",
};

function productionProblems(shape: z.ZodRawShape, source: NodeJS.ProcessEnv): [string, string][] {
  if (source.NODE_ENV !== 'production') return [];
  return Object.entries(PRODUCTION_NAMED)
    .filter(([variable]) => variable in shape && !source[variable])
    .map(([variable, reason]) => [variable, `${variable} ${reason}`]);
}

export function parseConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  source: NodeJS.ProcessEnv,
): z.output<z.ZodObject<Shape>> {
  const input = Object.fromEntries(
    Object.keys(shape).map((key) => [key, source[key] === '' ? undefined : source[key]]),
  );
  const result = z.object(shape).safeParse(input);
  const unnamed = productionProblems(shape, source);
  if (result.success && unnamed.length === 0) return result.data;
  // Every variable that is wrong, at once (the first issue of each), so one restart fixes them all.
  const problems = new Map<string, string>(unnamed);
  for (const issue of result.success ? [] : result.error.issues) {
    const variable = String(issue.path[0]);
    if (problems.has(variable)) continue;
    const missing = source[variable] === undefined && issue.code === 'invalid_type';
    const reason = missing && !issue.message.startsWith('is required') ? 'is required' : issue.message;
    problems.set(variable, `${variable} ${reason}`);
  }
  throw new ConfigError(problems.size > 0 ? [...problems.values()].join('; ') : 'Configuration is invalid');
}

/** For settings that may come from one of several variables: names them all when none is set. */
export function requireOneOf(config: Record<string, unknown>, names: string[]): void {
  if (names.some((name) => config[name] !== undefined)) return;
  throw new ConfigError(`${names.join(' or ')} is required`);
}

/** Exit status of a process stopped by bad configuration (EX_CONFIG from sysexits.h). */
export const CONFIG_EXIT_CODE = 78;

/**
 * Reads the process environment once at boot. A bad variable stops the process with one readable line
 * on stderr and exit code 78; nothing else in the code base reads process.env.
 */
export function loadConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  /** Rules across variables; throw a ConfigError to refuse the configuration. */
  check: (config: z.output<z.ZodObject<Shape>>) => void = () => undefined,
): z.output<z.ZodObject<Shape>> {
  try {
    const config = parseConfig(shape, process.env);
    check(config);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(CONFIG_EXIT_CODE);
  }
}
