import { dateText, dateTimeText, isValidLocal, MAX_YEAR, MIN_YEAR, type LocalDateTime } from './civil.js';
import { DateParseError } from './errors.js';
import { ianaZone, localIn, SERVICE_ZONE } from './zone.js';

function berlinLocal(instant: Date): LocalDateTime {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Invalid Date');
  const local = localIn(ms, ianaZone(SERVICE_ZONE));
  if (local.year < MIN_YEAR || local.year > MAX_YEAR) {
    throw new RangeError(`${instant.toISOString()} is outside the years ${MIN_YEAR}–${MAX_YEAR}`);
  }
  return local;
}

/** `YYYY-MM-DDTHH:mm:ss` in Europe/Berlin, no offset; milliseconds are cut off. RangeError for an invalid Date. */
export function formatDateTime(instant: Date): string {
  return dateTimeText(berlinLocal(instant));
}

const STORED_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `YYYY-MM-DD`. A Date gives its calendar date in Europe/Berlin; a string (as PostgreSQL `date` columns hold
 * it) must already be `YYYY-MM-DD` and a real date, and is returned unchanged.
 * @throws DateParseError for any other string, RangeError for an invalid Date.
 */
export function formatDate(value: Date | string): string {
  if (typeof value !== 'string') return dateText(berlinLocal(value));
  const match = STORED_DATE.exec(value);
  const local = match && {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
  };
  if (!local || !isValidLocal(local)) {
    throw new DateParseError(
      value,
      match ? 'invalid-value' : 'unrecognised',
      'a date in the form YYYY-MM-DD',
    );
  }
  return value;
}
