/** `'a', 'b'` for an SQL `IN (...)` list built from a closed value set of string constants. */
export function sqlStringList(values: readonly string[]): string {
  return values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
}
