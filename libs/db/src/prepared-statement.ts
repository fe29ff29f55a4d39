import { Pool, type QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** A statement with a name: each pooled connection parses and plans it once, then only binds and runs it. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/** The data source's own pool of connections. */
const poolOf = (db: DataSource) => (db.driver as PostgresDriver).master as Pool;

/**
 * Runs `statement` on the data source's pool (TypeORM's query() takes no statement name), or on a pool of
 * `genericPlanPool`. For statements every request runs; a connection pooler in front of PostgreSQL must keep
 * prepared statements (see the README).
 */
export async function runPrepared<Row extends QueryResultRow>(
  db: DataSource | Pool,
  statement: PreparedStatement,
  values: readonly unknown[],
): Promise<Row[]> {
  const pool = db instanceof Pool ? db : poolOf(db);
  return (await pool.query<Row>({ ...statement, values: [...values] })).rows;
}

/**
 * A second pool to the data source's database (`size` connections, named `purpose` after the data source's
 * application name) whose connections plan a prepared statement once for all values
 * (`plan_cache_mode = force_generic_plan`) instead of again for each execution, as PostgreSQL does while a
 * value-specific plan looks cheaper. For statements whose plan is the same whatever the values, where planning
 * costs about as much as running. Parallel workers are off on these connections: a generic plan may otherwise
 * start workers for a branch the values leave empty (about 8 ms each time on 2 cores). Unnamed statements are
 * planned generically here too, so only statements of that kind belong on this pool. A connection keeps the plan
 * of every named statement it ran, so their texts must be few. A request for one of its connections waits as
 * long as one of the data source's (`poolWaitMs`) before it is rejected. The caller ends the pool.
 */
export function genericPlanPool(db: DataSource, size: number, purpose: string): Pool {
  const options = poolOf(db).options;
  const pool = new Pool({
    ...options,
    max: size,
    application_name: `${options.application_name ?? ''} ${purpose}`.trim(),
    options: `${options.options ?? ''} -c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0`,
  });
  // As for the data source's own pool: a connection that breaks while idle (PostgreSQL restarted) is an 'error'
  // event of the pool, which would otherwise end the process.
  pool.on('error', (error) => {
    db.logger.log('warn', `Postgres pool "${purpose}" raised an error. ${error}`);
  });
  return pool;
}
