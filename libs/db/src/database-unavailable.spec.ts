import { createServer } from 'node:net';
import type { DataSource } from 'typeorm';
import { Client } from 'pg';
import { createDataSource } from './data-source.js';
import { isDatabaseUnavailable } from './database-unavailable.js';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** What `work` rejects with. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => {
      throw new Error('the work succeeded');
    },
    (error: unknown) => error,
  );
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isDatabaseUnavailable, on the errors node-postgres and TypeORM really raise', () => {
  let db: DataSource;
  let killer: Client;

  beforeAll(async () => {
    db = createDataSource({ url: SERVER_URL, applicationName: 'db-unavailable-spec', poolSize: 2 });
    await db.initialize();
    killer = new Client({ connectionString: SERVER_URL });
    await killer.connect();
  });

  afterAll(async () => {
    await killer?.end();
    await db?.destroy();
  });

  it('is true for a server that refuses connections', async () => {
    const client = new Client({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/x` });
    const error = await failureOf(() => client.connect());
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("is true for a statement whose backend was terminated (admin_shutdown), through TypeORM's error", async () => {
    const error = await failureOf(() =>
      db.transaction(async (manager) => {
        const [{ pid }] = await manager.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
        const sleeping = manager.query('SELECT pg_sleep(5)');
        // Its failure may come while the kill is still being answered: handled then, rethrown when awaited.
        sleeping.catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await killer.query('SELECT pg_terminate_backend($1)', [pid]);
        await sleeping;
      }),
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is true for the next statement on a connection that was terminated', async () => {
    const client = new Client({ connectionString: SERVER_URL });
    await client.connect();
    client.on('error', () => undefined);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await killer.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const error = await failureOf(() => client.query('SELECT 1'));
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is false for faults of the work itself: syntax, arithmetic, a unique key, a plain Error', async () => {
    const syntax = await failureOf(() => db.query('SELEC 1'));
    const division = await failureOf(() => db.query('SELECT 1 / 0'));
    const unique = await failureOf(() =>
      db.transaction(async (manager) => {
        await manager.query('CREATE TEMP TABLE once (n int PRIMARY KEY) ON COMMIT DROP');
        await manager.query('INSERT INTO once VALUES (1), (1)');
      }),
    );
    for (const error of [syntax, division, unique, new Error('the handler broke'), undefined, 'text'])
      expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
