import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source.js';
import { genericPlanPool, type PreparedStatement, runPrepared } from './prepared-statement.js';

/** A statement whose best plan depends on its value: a custom plan folds the comparison away. */
const SERIES_ABOVE: PreparedStatement = {
  name: 'db-spec-series-above',
  text: 'SELECT count(*)::int AS count FROM generate_series(1, 1000) AS s(n) WHERE n > $1::int',
};

const PID: PreparedStatement = { name: 'db-spec-pid', text: 'SELECT pg_backend_pid() AS pid' };

interface PlanCounts {
  generic: number;
  custom: number;
}

const PLAN_COUNTS: PreparedStatement = {
  name: 'db-spec-plan-counts',
  text: `SELECT generic_plans::int AS generic, custom_plans::int AS custom
           FROM pg_prepared_statements WHERE name = $1`,
};

describe('runPrepared and genericPlanPool', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = createDataSource({
      url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      applicationName: 'db-spec',
      poolSize: 1,
    });
    await db.initialize();
  });

  afterAll(() => db.destroy());

  /** Runs SERIES_ABOVE for each value, then reads how its connection (the pool's only one) planned it. */
  async function runSeries(pool: Parameters<typeof runPrepared>[0], values: number[]) {
    const counts = [];
    for (const value of values)
      counts.push((await runPrepared<{ count: number }>(pool, SERIES_ABOVE, [value]))[0].count);
    const [plans] = await runPrepared<PlanCounts>(pool, PLAN_COUNTS, [SERIES_ABOVE.name]);
    return { counts, plans };
  }

  it("runs a named statement on the data source's pool, planned for each value at first", async () => {
    const { counts, plans } = await runSeries(db, [0, 990, 1000]);
    expect(counts).toEqual([1000, 10, 0]);
    expect(plans).toEqual({ generic: 0, custom: 3 });
  });

  it('plans a statement once for all values on a generic-plan pool, without parallel workers', async () => {
    const pool = genericPlanPool(db, 1, 'generic');
    try {
      const { counts, plans } = await runSeries(pool, [0, 990, 1000, 500]);
      expect(counts).toEqual([1000, 10, 0, 500]);
      expect(plans).toEqual({ generic: 4, custom: 0 });
      const settings = await pool.query<{ mode: string; workers: string; application: string }>(
        `SELECT current_setting('plan_cache_mode') AS mode,
                current_setting('max_parallel_workers_per_gather') AS workers,
                current_setting('application_name') AS application`,
      );
      expect(settings.rows).toEqual([
        { mode: 'force_generic_plan', workers: '0', application: 'db-spec generic' },
      ]);
    } finally {
      await pool.end();
    }
  });

  it('survives a connection that breaks while idle, and goes on with a new one', async () => {
    const pool = genericPlanPool(db, 1, 'generic');
    try {
      const [{ pid }] = await runPrepared<{ pid: number }>(pool, PID, []);
      await db.query('SELECT pg_terminate_backend($1)', [pid]);
      // The pool drops the broken connection once it notices (an 'error' event of the pool).
      for (let waited = 0; pool.idleCount > 0 && waited < 5_000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(pool.idleCount).toBe(0);
      const [next] = await runPrepared<{ pid: number }>(pool, PID, []);
      expect(next.pid).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });
});
