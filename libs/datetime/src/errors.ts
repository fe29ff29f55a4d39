/** Why a text was refused. */
export type DateParseReason =
  /** Not one of the accepted notations (garbage, empty, a time without a date, a two-digit year …). */
  | 'unrecognised'
  /** The notation fits, the values do not: 31.02., month 13, 24:00, 12:60, an offset beyond ±18:00, year 0000. */
  | 'invalid-value'
  /** A local time the clocks skip in the zone (the spring-forward gap of daylight saving time). */
  | 'nonexistent-local-time';

const MAX_QUOTED = 80;

function quote(text: string): string {
  return JSON.stringify(text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);
}

/** A date or date-time text that is refused. The message names the text (quoted, cut at 80 characters). */
export class DateParseError extends Error {
  override readonly name = 'DateParseError';

  constructor(
    /** The refused text (trimmed, as the parser saw it). */
    readonly text: string,
    readonly reason: DateParseReason,
    expected: string,
    zone?: string,
  ) {
    super(
      reason === 'nonexistent-local-time'
        ? `${quote(text)} does not exist in time zone ${zone ?? '?'}: the clocks skip it (as when summer time begins)`
        : `${quote(text)} is not ${expected}`,
    );
  }
}
