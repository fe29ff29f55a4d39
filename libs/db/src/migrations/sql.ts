import type { QueryRunner } from 'typeorm';

/** Shared SQL fragments of the migrations. */

export const TIMESTAMP_COLUMNS = `
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()`;

/** Keeps updated_at current on every UPDATE, including set-based ones that bypass the ORM. */
export function touchTrigger(table: string): string {
  const name = table.replace(/"/g, '').replace('.', '_');
  return `CREATE TRIGGER ${name}_touch BEFORE UPDATE ON ${table}
    FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at()`;
}

/** The schema an extension was created in, quoted for SQL. */
export async function extensionSchema(db: QueryRunner, extension: string): Promise<string> {
  const [row] = (await db.query(
    `SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = $1`,
    [extension],
  )) as ({ schema: string } | undefined)[];
  if (!row) throw new Error(`Extension ${extension} is missing`);
  return row.schema;
}
