import type { EntityManager } from 'typeorm';

/** SQL fragments the administration's queries share. */

/** A timestamptz column as the administration answers it: RFC 3339 in UTC, to the second. */
export const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** `text` as a LIKE pattern matching itself anywhere, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The rows an UPDATE or DELETE ... RETURNING returns. (TypeORM answers such a statement with `[rows, count]`; as a
 * common table expression of a SELECT it answers with the rows, as for any query.)
 */
export function writtenRows<Row>(
  db: EntityManager,
  statement: string,
  parameters: unknown[],
): Promise<Row[]> {
  return db.query<Row[]>(`WITH written AS (${statement}) SELECT * FROM written`, parameters);
}

/** A list's WHERE clause, built condition by condition; each value is a numbered parameter (`?` in its condition). */
export class SqlFilter {
  readonly parameters: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds `condition`; its `?` stands for `value` (a condition without `?` takes none). */
  where(condition: string, value?: unknown): this {
    if (condition.includes('?')) {
      this.parameters.push(value);
      condition = condition.replace('?', `$${this.parameters.length}`);
    }
    this.conditions.push(condition);
    return this;
  }

  get clause(): string {
    return this.conditions.join(' AND ');
  }
}

/** Whether an id from a path can be a uuid column's value: anything else names no row (404, not a database error). */
export function isUuid(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}
