import { resolvePostgres } from './postgres.js';
import { resolveRedis } from './redis.js';
import type { ResolveOptions, ServiceHandle, ServiceSource } from './types.js';

/** PostgreSQL and Redis for one run of a dev tool; `stop()` stops the servers this run started. */
export interface LocalServices {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

const SOURCE_WORDS: Record<ServiceSource, (variable: string) => string> = {
  env: (variable) => `from ${variable}`,
  local: () => 'local server',
  embedded: () => 'embedded',
};

/** The URL with its password masked: DATABASE_URL may carry a real one. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a valid URL)';
  }
}

function sourceLine(label: string, variable: string, handle: ServiceHandle): string {
  return `${label}: ${SOURCE_WORDS[handle.source](variable)} at ${redactUrl(handle.url)}`;
}

/** Resolves PostgreSQL and Redis side by side, logging one line per service; on failure stops what did start. */
export async function resolveServices(options: Omit<ResolveOptions, 'localPort'>): Promise<LocalServices> {
  const results = await Promise.allSettled([resolvePostgres(options), resolveRedis(options)]);
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await Promise.all(started.map((service) => service.stop()));
    throw failure.reason;
  }
  const [postgres, redis] = started as [ServiceHandle, ServiceHandle];
  options.log(sourceLine('PostgreSQL', 'DATABASE_URL', postgres));
  options.log(sourceLine('Redis', 'REDIS_URL', redis));
  return {
    databaseUrl: postgres.url,
    redisUrl: redis.url,
    stop: async () => {
      await Promise.all([postgres.stop(), redis.stop()]);
    },
  };
}
