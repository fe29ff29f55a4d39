import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** A statement with a name: each pooled connection parses and plans it once, then only binds and runs it. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * Runs `statement` on the data source's pool (TypeORM's query() takes no statement name). For statements every
 * request runs; a connection pooler in front of PostgreSQL must keep prepared statements (see the README).
 */
export async function runPrepared<Row extends QueryResultRow>(
  db: DataSource,
  statement: PreparedStatement,
  values: readonly unknown[],
): Promise<Row[]> {
  const pool = (db.driver as PostgresDriver).master as Pool;
  return (await pool.query<Row>({ ...statement, values: [...values] })).rows;
}
