import type { Client } from 'pg';

/** What PostgreSQL did on its own at one moment: vacuums in progress, and counters of finished work. */
interface Background {
  vacuuming: string[];
  autovacuums: number;
  autoanalyzes: number;
  checkpoints: number;
  checkpointBytes: number;
}

async function background(db: Client): Promise<Background> {
  const { rows } = await db.query<Omit<Background, 'vacuuming'> & { vacuuming: string[] }>(
    `SELECT ARRAY(SELECT p.relid::regclass::text || ' (' || p.phase || ')' FROM pg_stat_progress_vacuum p
                   WHERE p.datname = current_database() ORDER BY 1) AS vacuuming,
            (SELECT coalesce(sum(autovacuum_count), 0)::int FROM pg_stat_user_tables) AS autovacuums,
            (SELECT coalesce(sum(autoanalyze_count), 0)::int FROM pg_stat_user_tables) AS autoanalyzes,
            (SELECT (checkpoints_timed + checkpoints_req)::int FROM pg_stat_bgwriter) AS checkpoints,
            (SELECT buffers_checkpoint * current_setting('block_size')::bigint FROM pg_stat_bgwriter)::float8
              AS "checkpointBytes"`,
  );
  return rows[0];
}

const list = (names: string[]) => (names.length > 0 ? names.join(', ') : 'none');

/**
 * The database's own background work from now until `read()`: autovacuum (of the bench's database) in progress at
 * either end and finished in between, and checkpoints (of the whole server). The search benches measure right after
 * writing, when PostgreSQL may still be vacuuming and checkpointing what was written; this says whether it was.
 */
export async function databaseBackgroundMeter(db: Client): Promise<{ read(): Promise<string> }> {
  const start = await background(db);
  return {
    async read() {
      const end = await background(db);
      return (
        `autovacuum in progress at the start: ${list(start.vacuuming)}, at the end: ${list(end.vacuuming)}; ` +
        `${end.autovacuums - start.autovacuums} autovacuums and ${end.autoanalyzes - start.autoanalyzes} ` +
        `autoanalyzes finished; ${end.checkpoints - start.checkpoints} checkpoints wrote ` +
        `${Math.round((end.checkpointBytes - start.checkpointBytes) / 1024 ** 2)} MB`
      );
    },
  };
}
