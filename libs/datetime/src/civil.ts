/**
 * Calendar arithmetic without a time zone: a wall-clock reading as written in the input, its validation and
 * its text forms. Zone-free on purpose, so nothing here depends on the process time zone.
 */

/** A date and time of day as read off a wall clock, without a zone. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The output forms have four-digit years, so only years 0001–9999 are accepted and produced. */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function inRange(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

/** True for a real calendar date (no 31 February, no month 13) at a real time of day (no 24:00, no :60). */
export function isValidLocal(local: LocalDateTime): boolean {
  return (
    inRange(local.year, MIN_YEAR, MAX_YEAR) &&
    inRange(local.month, 1, 12) &&
    inRange(local.day, 1, daysInMonth(local.year, local.month)) &&
    inRange(local.hour, 0, 23) &&
    inRange(local.minute, 0, 59) &&
    inRange(local.second, 0, 59) &&
    inRange(local.millisecond, 0, 999)
  );
}

/** The wall-clock reading taken as if it were UTC, in epoch milliseconds (years below 100 stay as they are). */
export function wallClockMs(local: LocalDateTime): number {
  const date = new Date(0);
  date.setUTCFullYear(local.year, local.month - 1, local.day);
  date.setUTCHours(local.hour, local.minute, local.second, local.millisecond);
  return date.getTime();
}

/** The inverse of `wallClockMs`. */
export function wallClockOf(ms: number): LocalDateTime {
  const date = new Date(ms);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
  };
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `YYYY-MM-DD`. */
export function dateText(local: LocalDateTime): string {
  return `${pad(local.year, 4)}-${pad(local.month, 2)}-${pad(local.day, 2)}`;
}

/** `YYYY-MM-DDTHH:mm:ss` (milliseconds dropped). */
export function dateTimeText(local: LocalDateTime): string {
  return `${dateText(local)}T${pad(local.hour, 2)}:${pad(local.minute, 2)}:${pad(local.second, 2)}`;
}

/** `1`–`9` fraction digits to milliseconds; digits beyond the millisecond are cut off, not rounded. */
export function fractionToMs(digits: string | undefined): number {
  return digits ? Number(digits.slice(0, 3).padEnd(3, '0')) : 0;
}
