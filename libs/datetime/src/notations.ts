import { DateTime } from 'luxon';
import { fractionToMs, isValidLocal, MAX_YEAR, MIN_YEAR, wallClockMs, type LocalDateTime } from './civil.js';
import type { DateParseReason } from './errors.js';

/** What a text says, before a zone is applied. */
export type Notation =
  /** A date alone: the start of that day in the zone. */
  | { kind: 'date'; local: LocalDateTime }
  /** A date and time without offset: a wall-clock reading in the zone. */
  | { kind: 'local'; local: LocalDateTime }
  /** The text fixes the instant itself (an offset, `Z`, `GMT`, …). */
  | { kind: 'instant'; epochMs: number };

type Groups = [
  year: string,
  month: string,
  day: string,
  hour?: string,
  minute?: string,
  second?: string,
  fraction?: string,
  offset?: string,
];

// ISO 8601 extended: 2024-03-31, 2024-03-31T12:00, 2024-03-31 12:00:00.123, 2024-03-31T12:00:00+02:00, …Z.
const ISO_EXTENDED =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
// ISO 8601 basic: 20240331, 20240331T1200, 20240331T120000Z, 20240331T120000+0200.
const ISO_BASIC =
  /^(\d{4})(\d{2})(\d{2})(?:[Tt](\d{2})(\d{2})(?:(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?:\d{2})?)?)?$/;
// German: 31.03.2024, 31.3.2024, 31.03.2024 12:00, 31.03.2024, 12:00:00 (as toLocaleString('de-DE') writes it).
const GERMAN = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
// RFC 2822 and HTTP dates carry a year of four digits; two-digit years (RFC 850, obsolete RFC 2822) are refused.
const FOUR_DIGIT_YEAR = /(?<![\d+-])\d{4}(?!\d)/;

const MAX_OFFSET_MINUTES = 18 * 60;

/** `Z`, `+02`, `+0200`, `+02:00` to milliseconds east of UTC; undefined beyond ±18:00 or with minutes ≥ 60. */
export function offsetTextToMs(text: string): number | undefined {
  if (text === 'Z' || text === 'z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  const total = hours * 60 + minutes;
  if (minutes > 59 || total > MAX_OFFSET_MINUTES) return undefined;
  return (match[1] === '-' ? -total : total) * 60_000;
}

/** Builds the notation from the groups of one of the date-first patterns. */
export function fromGroups([year, month, day, hour, minute, second, fraction, offset]: Groups):
  Notation | DateParseReason {
  const local: LocalDateTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? '0'),
    minute: Number(minute ?? '0'),
    second: Number(second ?? '0'),
    millisecond: fractionToMs(fraction),
  };
  if (!isValidLocal(local)) return 'invalid-value';
  if (hour === undefined) return { kind: 'date', local };
  if (offset === undefined) return { kind: 'local', local };
  const offsetMs = offsetTextToMs(offset);
  if (offsetMs === undefined) return 'invalid-value';
  return { kind: 'instant', epochMs: wallClockMs(local) - offsetMs };
}

function groupsOf(match: RegExpExecArray): Groups {
  return match.slice(1) as Groups;
}

/**
 * Reads a trimmed text in any of the accepted notations. Returns why it was refused otherwise: `unrecognised`
 * when no notation fits, `invalid-value` when one fits but the values are impossible.
 */
export function readNotation(text: string): Notation | DateParseReason {
  const iso = ISO_EXTENDED.exec(text) ?? ISO_BASIC.exec(text);
  if (iso) return fromGroups(groupsOf(iso));

  const german = GERMAN.exec(text);
  if (german) {
    const [day, month, year, hour, minute, second] = groupsOf(german);
    return fromGroups([year, month, day, hour, minute, second]);
  }

  // setZone keeps the zone as written, so `year` is the written year.
  const readings = [
    DateTime.fromRFC2822(text, { setZone: true }),
    DateTime.fromHTTP(text, { setZone: true }),
  ];
  const valid = readings.find((reading) => reading.isValid);
  if (valid) {
    return FOUR_DIGIT_YEAR.test(text) && valid.year >= MIN_YEAR && valid.year <= MAX_YEAR
      ? { kind: 'instant', epochMs: valid.toMillis() }
      : 'unrecognised';
  }
  // luxon's reasons for a well-formed but impossible RFC 2822/HTTP date: 31 Feb, 25:00, a weekday that does not match.
  const impossible = ['unit out of range', 'mismatched weekday'];
  if (readings.some((reading) => impossible.includes(reading.invalidReason ?? ''))) return 'invalid-value';
  return 'unrecognised';
}
