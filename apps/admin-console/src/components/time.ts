/** A time of the API (RFC 3339) as people here read it; a dash for none. */
export function localTime(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString('de-DE') : '–';
}
