import { baseEnvShape, ConfigError, env, parseConfig } from './env.js';

const shape = { ...baseEnvShape, PORT: env.port(3000), REDIS_URL: env.redisUrl() };
const valid = { DATABASE_URL: 'postgres://u@127.0.0.1:5432/db', REDIS_URL: 'redis://127.0.0.1:6379' };

describe('parseConfig', () => {
  it('returns typed values with defaults applied', () => {
    const config = parseConfig(shape, valid);
    expect(config).toEqual({
      ...valid,
      PORT: 3000,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10000,
      DB_POOL_WAIT_MS: 2000,
    });
  });

  it('coerces numbers and treats empty strings as unset', () => {
    expect(parseConfig(shape, { ...valid, PORT: '8080' }).PORT).toBe(8080);
    expect(parseConfig(shape, { ...valid, PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    [{ REDIS_URL: valid.REDIS_URL }, 'DATABASE_URL is required (a postgres:// connection URL)'],
    [{ DATABASE_URL: valid.DATABASE_URL }, 'REDIS_URL is required (a redis:// connection URL)'],
    [{ ...valid, DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// connection URL'],
    [{ ...valid, REDIS_URL: 'not a url' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ ...valid, PORT: 'abc' }, 'PORT must be a TCP port number'],
    [{ ...valid, PORT: '70000' }, 'PORT must be a TCP port number (1-65535)'],
    [{ ...valid, DB_POOL_WAIT_MS: '0' }, 'DB_POOL_WAIT_MS must be a positive integer'],
    [
      { ...valid, LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
  ])('names the failing variable: %j', (source, message) => {
    expect(() => parseConfig(shape, source)).toThrow(new ConfigError(message));
  });

  it('names every failing variable at once, so one restart fixes them all', () => {
    expect(() => parseConfig(shape, { PORT: 'abc' })).toThrow(
      new ConfigError(
        'DATABASE_URL is required (a postgres:// connection URL); PORT must be a TCP port number; ' +
          'REDIS_URL is required (a redis:// connection URL)',
      ),
    );
  });

  it('decodes encryption keys and rejects ones of the wrong size', () => {
    const keyShape = { KEY: env.encryptionKey() };
    expect(parseConfig(keyShape, { KEY: Buffer.alloc(32, 7).toString('base64') }).KEY).toEqual(
      Buffer.alloc(32, 7),
    );
    expect(() => parseConfig(keyShape, { KEY: 'c2hvcnQ=' })).toThrow(
      'KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)',
    );
  });

  it('never echoes the rejected value', () => {
    const secretUrl = 'mysql://user:s3cret@host/db';
    expect(() => parseConfig(shape, { ...valid, DATABASE_URL: secretUrl })).toThrow(ConfigError);
    expect(() => parseConfig(shape, { ...valid, DATABASE_URL: secretUrl })).not.toThrow(/s3cret/);
  });

  it('believes only the loopback proxy in development, and needs the gateway named in production', () => {
    const proxyShape = { ...shape, TRUSTED_PROXIES: env.trustedProxies() };
    expect(parseConfig(proxyShape, valid).TRUSTED_PROXIES).toEqual(['loopback']);
    expect(() => parseConfig(proxyShape, { ...valid, NODE_ENV: 'production' })).toThrow(
      "TRUSTED_PROXIES is required with NODE_ENV=production: the gateway's addresses or ranges",
    );
    expect(
      parseConfig(proxyShape, { ...valid, NODE_ENV: 'production', TRUSTED_PROXIES: '10.8.0.5, 10.8.1.0/24' })
        .TRUSTED_PROXIES,
    ).toEqual(['10.8.0.5', '10.8.1.0/24']);
    // A unit that believes no proxy is not asked for one.
    expect(parseConfig(shape, { ...valid, NODE_ENV: 'production' }).PORT).toBe(3000);
  });
});
