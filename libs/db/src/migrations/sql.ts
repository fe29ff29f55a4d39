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
