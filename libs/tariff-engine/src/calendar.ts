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

/** The calendar date of `instant` in Europe/Berlin. */
export function berlinCalendarDate(instant: Instant, what = 'instant'): CalendarDate {
  let year = 0;
  let month = 0;
  let day = 0;
  let beforeCommonEra = false;
  for (const part of berlinDate.formatToParts(toDate(instant, what))) {
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
