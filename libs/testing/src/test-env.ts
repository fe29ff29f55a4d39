/** Where the tests find PostgreSQL and Redis: set by `pnpm test` (tools/dev with-services), else the local defaults. */
export function testDatabaseServerUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function testRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}
