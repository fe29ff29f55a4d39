import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { findFreePort } from './process-tools.js';
import { pingRedis } from './redis.js';
import {
  checkoutDatabaseName,
  resolvePostgres,
  resolveRedis,
  type RestartableService,
  startPrivatePostgres,
  startPrivateRedis,
} from './index.js';

async function selectOne(url: string): Promise<number> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one;
  } finally {
    await client.end();
  }
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

const quiet = { log: () => undefined };
let dir: string;

beforeAll(async () => {
  // As root the server runs as the OS user postgres, which must be able to traverse the directory.
  dir = await mkdtemp(path.join(os.tmpdir(), 'local-services-'));
  await chmod(dir, 0o755);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('private servers for tests', () => {
  let postgres: RestartableService;
  let redis: RestartableService;

  beforeAll(async () => {
    redis = await startPrivateRedis(path.join(dir, 'private-redis'));
    postgres = await startPrivatePostgres(path.join(dir, 'private-postgres'));
  });

  afterAll(async () => {
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  it('runs PostgreSQL, which stops and comes back on the same port', async () => {
    expect(portOf(postgres.url)).toBe(postgres.port);
    expect(await selectOne(postgres.url)).toBe(1);
    await postgres.stop();
    await expect(selectOne(postgres.url)).rejects.toThrow(/ECONNREFUSED/);
    await postgres.start();
    expect(await selectOne(postgres.url)).toBe(1);
  });

  it('runs Redis, which stops and comes back on the same port', async () => {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await pingRedis(redis.port)).toBe(true);
    await redis.stop();
    expect(await pingRedis(redis.port)).toBe(false);
    await redis.start();
    expect(await pingRedis(redis.port)).toBe(true);
  });

  it('resolves to a server already running on the probed port, creating the checkout’s own database', async () => {
    const stateDir = path.join(dir, 'unused-state');
    const pg = await resolvePostgres({ stateDir, env: {}, ...quiet, localPort: postgres.port });
    const rd = await resolveRedis({ stateDir, env: {}, ...quiet, localPort: redis.port });

    expect(pg).toMatchObject({
      source: 'local',
      url: `postgres://postgres@127.0.0.1:${postgres.port}/${checkoutDatabaseName(stateDir)}`,
    });
    expect(await selectOne(pg.url)).toBe(1);
    // Another checkout on the same server gets a database of its own.
    const other = await resolvePostgres({
      stateDir: path.join(dir, 'other-checkout', '.local'),
      env: {},
      ...quiet,
      localPort: postgres.port,
    });
    expect(other.url).not.toBe(pg.url);
    expect(await selectOne(other.url)).toBe(1);
    expect(rd).toMatchObject({ source: 'local', url: redis.url });
    await Promise.all([pg.stop(), rd.stop()]);
    expect(await pingRedis(redis.port)).toBe(true); // stop() leaves a server it did not start alone
  });
});

describe('resolving the services', () => {
  it('uses DATABASE_URL and REDIS_URL as they are', async () => {
    const env = {
      DATABASE_URL: 'postgres://app:secret@db.example:5432/app',
      REDIS_URL: 'redis://cache.example:6380',
    };
    const pg = await resolvePostgres({ stateDir: dir, env, ...quiet });
    const rd = await resolveRedis({ stateDir: dir, env, ...quiet });

    expect(pg).toMatchObject({ source: 'env', url: env.DATABASE_URL });
    expect(rd).toMatchObject({ source: 'env', url: env.REDIS_URL });
    await expect(Promise.all([pg.stop(), rd.stop()])).resolves.toBeDefined();
  });

  it('starts embedded servers when nothing answers, keeping PostgreSQL data across restarts', async () => {
    const stateDir = path.join(dir, 'state');
    const options = { stateDir, env: {}, ...quiet, localPort: await findFreePort() };

    const rd = await resolveRedis(options);
    try {
      expect(rd.source).toBe('embedded');
      expect(await pingRedis(portOf(rd.url))).toBe(true);
    } finally {
      await rd.stop();
    }
    expect(await pingRedis(portOf(rd.url))).toBe(false);

    const pg = await resolvePostgres(options);
    try {
      expect(pg.source).toBe('embedded');
      expect(pg.url).toMatch(
        new RegExp(`^postgres://postgres@127\\.0\\.0\\.1:\\d+/${checkoutDatabaseName(stateDir)}$`),
      );
      await withClient(pg.url, (client) =>
        client.query('CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)'),
      );
    } finally {
      await pg.stop();
    }
    await expect(selectOne(pg.url)).rejects.toThrow(/ECONNREFUSED/);

    const again = await resolvePostgres(options);
    try {
      const { rows } = await withClient(again.url, (client) => client.query('SELECT id FROM kept'));
      expect(rows).toEqual([{ id: 7 }]);
      expect((await stat(path.join(stateDir, 'postgres', 'PG_VERSION'))).isFile()).toBe(true);
    } finally {
      await again.stop();
    }
  });
});

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
