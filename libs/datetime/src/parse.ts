import type { IANAZone } from 'luxon';
import { dateText, MAX_YEAR, MIN_YEAR } from './civil.js';
import { DateParseError } from './errors.js';
import { fromGroups, readNotation, type Notation } from './notations.js';
import { ianaZone, localIn, resolveLocal, SERVICE_ZONE } from './zone.js';

const DATE_OR_DATE_TIME = 'a date or date-time';
const DATE = 'a date';
const TIMESTAMP = 'a timestamp (ISO 8601 with offset, or YYYY-MM-DDTHH:mm:ss)';

function read(text: string, expected: string): { trimmed: string; notation: Notation } {
  if (typeof text !== 'string') throw new DateParseError(String(text), 'unrecognised', expected);
  const trimmed = text.trim();
  const notation = readNotation(trimmed);
  if (typeof notation === 'string') throw new DateParseError(trimmed, notation, expected);
  return { trimmed, notation };
}

/**
 * The instant a notation stands for in the zone. A date alone is the start of the day (midnight; should the
 * clocks skip midnight, as in America/Santiago, the first minute after the gap). A local time in the
 * spring-forward gap is refused; an ambiguous one in the fall-back hour is the earlier instant (summer time).
 */
function instantOf(notation: Notation, zone: IANAZone, text: string, expected: string): number {
  switch (notation.kind) {
    case 'instant':
      return notation.epochMs;
    case 'date': {
      const resolution = resolveLocal(notation.local, zone);
      return resolution.kind === 'gap' ? resolution.shiftedMs : resolution.epochMs;
    }
    case 'local': {
      const resolution = resolveLocal(notation.local, zone);
      if (resolution.kind === 'gap')
        throw new DateParseError(text, 'nonexistent-local-time', expected, zone.name);
      return resolution.epochMs;
    }
  }
}

/**
 * Parses a DateTime input. Accepted: ISO 8601 (extended or basic; `T` or a space between date and time;
 * seconds and up to nine fraction digits optional; offset `Z`, `±HH`, `±HHMM` or `±HH:MM` optional), German
 * `31.03.2024` / `31.3.2024` with an optional ` 12:00` or ` 12:00:00`, RFC 2822 and HTTP dates with a
 * four-digit year. Text without offset is read in `zone` (an IANA name; a RangeError if unknown).
 * @throws DateParseError for anything else, impossible dates, and local times the zone's clocks skip.
 */
export function parseDateTime(text: string, zone: string = SERVICE_ZONE): Date {
  const tz = ianaZone(zone);
  const { trimmed, notation } = read(text, DATE_OR_DATE_TIME);
  return new Date(instantOf(notation, tz, trimmed, DATE_OR_DATE_TIME));
}

/**
 * Parses a Date input (same notations as `parseDateTime`) to `YYYY-MM-DD`: the calendar date as written, or,
 * when the text fixes an instant (offset, `Z`, RFC 2822), that instant's calendar date in `zone`. A date-time
 * without offset must exist in `zone`, as for `parseDateTime`.
 * @throws DateParseError
 */
export function parseDate(text: string, zone: string = SERVICE_ZONE): string {
  const tz = ianaZone(zone);
  const { trimmed, notation } = read(text, DATE);
  const instant = instantOf(notation, tz, trimmed, DATE);
  if (notation.kind !== 'instant') return dateText(notation.local);
  const local = localIn(instant, tz);
  if (local.year < MIN_YEAR || local.year > MAX_YEAR)
    throw new DateParseError(trimmed, 'invalid-value', DATE);
  return dateText(local);
}

/** Today's calendar date in `zone`, as `YYYY-MM-DD` (comparable with `parseDate`'s results as text). */
export function todayIn(zone: string = SERVICE_ZONE, now = new Date()): string {
  return dateText(localIn(now.getTime(), ianaZone(zone)));
}

// RFC 3339 (the strict profile of ISO 8601) with offset, or exactly the DateTime output form.
const TIMESTAMP_HEADER =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Parses the `X-Svc-Timestamp` header strictly: `2024-03-31T00:30:00Z`, `2024-03-31T02:30:00.123+02:00`, or
 * the DateTime output form `2024-03-31T12:00:00` read in `zone` (gap refused, fall-back hour the earlier
 * instant). Nothing else: no lower-case `t`/`z`, no space separator, no missing seconds, no surrounding
 * whitespace, no fraction without offset.
 * @throws DateParseError
 */
export function parseTimestampHeader(text: string, zone: string = SERVICE_ZONE): Date {
  const tz = ianaZone(zone);
  const match = typeof text === 'string' ? TIMESTAMP_HEADER.exec(text) : null;
  if (!match) throw new DateParseError(String(text), 'unrecognised', TIMESTAMP);
  const [year, month, day, hour, minute, second, fraction, offset] = match.slice(1);
  const notation = fromGroups([year, month, day, hour, minute, second, fraction, offset]);
  if (typeof notation === 'string') throw new DateParseError(text, notation, TIMESTAMP);
  return new Date(instantOf(notation, tz, text, TIMESTAMP));
}
