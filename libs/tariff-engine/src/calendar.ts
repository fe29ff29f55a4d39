/**
 * Calendar dates in Europe/Berlin, the zone of the platform: a birthdate sent as epoch seconds of midnight UTC
 * or of midnight Berlin time is the same calendar day there (Berlin is ahead of UTC all year), so the age does
 * not depend on which convention the client used. Uses the runtime's ICU time zone data; the process time zone
 * plays no part.
 */

/** A calendar date. */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export const CALENDAR_ZONE = 'Europe/Berlin';

const berlinDate = new Intl.DateTimeFormat('en-US', {
  timeZone: CALENDAR_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  era: 'short',
});

/** An instant given as a `Date` or as (possibly negative) seconds since the epoch. */
export type Instant = Date | number;

function toDate(instant: Instant, what: string): Date {
  const date = typeof instant === 'number' ? new Date(instant * 1000) : instant;
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new RangeError(`${what} is not a valid instant: ${String(instant)}`);
  }
  return date;
}

const HOUR_MS = 3_600_000;

/**
 * From this instant on, Berlin's clocks have always been one to three hours ahead of UTC: Central European Time
 * since 1 April 1893 (local mean time before), summer time, and the double summer time of 1945 and 1947.
 */
const ONE_TO_THREE_HOURS_AHEAD_SINCE_MS = Date.UTC(1893, 3, 1);

/** The calendar date of `instant` in Europe/Berlin. */
export function berlinCalendarDate(instant: Instant, what = 'instant'): CalendarDate {
  const date = toDate(instant, what);
  return dateOneToThreeHoursAhead(date.getTime()) ?? zoneCalendarDateOfHour(date);
}

/**
 * The date Berlin has at `ms` when it follows from the offset alone: the UTC dates one and three hours later
 * are the same day (not in the two hours before midnight UTC), so the zone's exact offset does not matter.
 * Saves asking ICU, which costs several microseconds, for most instants.
 */
function dateOneToThreeHoursAhead(ms: number): CalendarDate | undefined {
  if (ms < ONE_TO_THREE_HOURS_AHEAD_SINCE_MS) return undefined;
  const earliest = new Date(ms + HOUR_MS);
  const day = earliest.getUTCDate();
  if (new Date(ms + 3 * HOUR_MS).getUTCDate() !== day) return undefined;
  return { year: earliest.getUTCFullYear(), month: earliest.getUTCMonth() + 1, day };
}

/** The UTC hour ICU was last asked about, and Berlin's date in it: the calculation date is asked per request. */
let lastAskedHour: { hour: number; date: CalendarDate } | undefined;

/**
 * `zoneCalendarDate`, remembered for the UTC hour of `date`. Since 1893 Berlin's offsets are whole hours and its
 * clocks change on the hour, so its midnight falls on a whole UTC hour and its date holds through each UTC hour.
 */
function zoneCalendarDateOfHour(date: Date): CalendarDate {
  const ms = date.getTime();
  if (ms < ONE_TO_THREE_HOURS_AHEAD_SINCE_MS) return zoneCalendarDate(date);
  const hour = Math.floor(ms / HOUR_MS);
  if (lastAskedHour?.hour !== hour) lastAskedHour = { hour, date: zoneCalendarDate(date) };
  return { ...lastAskedHour.date };
}

/** The calendar date in Europe/Berlin from the runtime's time zone data. */
function zoneCalendarDate(date: Date): CalendarDate {
  let year = 0;
  let month = 0;
  let day = 0;
  let beforeCommonEra = false;
  for (const part of berlinDate.formatToParts(date)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'era') beforeCommonEra = part.value === 'BC';
  }
  return { year: beforeCommonEra ? 1 - year : year, month, day };
}

/**
 * Age in completed years on `on`, both taken as calendar dates in Europe/Berlin. The age goes up on the
 * birthday; someone born on 29 February gets one year older on 1 March in common years (as § 188 (3) BGB
 * counts). Negative when the birthdate lies after `on`.
 */
export function ageAt(birthdate: Instant, on: Instant): number {
  const born = berlinCalendarDate(birthdate, 'birthdate');
  const day = berlinCalendarDate(on, 'calculation date');
  const hadBirthday = day.month > born.month || (day.month === born.month && day.day >= born.day);
  const years = day.year - born.year;
  return hadBirthday ? years : years - 1;
}
