import type { INestApplication } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { OVERLOAD_RETRY_AFTER_SECONDS } from '@broker/errors';
import { type ErrorShape, expectedClientError } from './error-shape-suite.js';

/**
 * DB_POOL_WAIT_MS for the overload tests: a refusal comes quickly, and a new connection, which pg-pool must also
 * open within it (at boot too), still does on a busy machine (at 300 ms a boot timed out under the full suite).
 */
export const OVERLOAD_TEST_POOL_WAIT_MS = '1500';

/**
 * Takes every connection of the app's database pool (its DataSource's), as requests in flight would: until
 * `release`, a request that needs one waits for it.
 */
export async function holdDatabasePool(app: INestApplication): Promise<{ release(): void }> {
  const pool = (app.get(DataSource).driver as PostgresDriver).master as Pool;
  const held: PoolClient[] = await Promise.all(
    Array.from({ length: pool.options.max ?? 10 /* pg-pool's default */ }, () => pool.connect()),
  );
  return { release: () => held.forEach((client) => client.release()) };
}

/** The answer to a request that waited too long for a database connection: 503, Retry-After, the area's body. */
export function expectOverloadRefusal(
  response: { status: number; headers: Record<string, string | undefined>; body: unknown },
  shape: ErrorShape,
): void {
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toBe(String(OVERLOAD_RETRY_AFTER_SECONDS));
  expect(response.body).toEqual(
    expectedClientError(shape, 503, 'Overloaded', [
      `The service is overloaded; try again in ${OVERLOAD_RETRY_AFTER_SECONDS} s`,
    ]),
  );
}
