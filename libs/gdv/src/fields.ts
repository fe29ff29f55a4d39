/** A field whose content does not fit its type; decoders return it instead of throwing. */
export class InvalidValue {
  constructor(
    readonly raw: string,
    readonly expected: string,
  ) {}
}

export type Decoded<T> = T | null | InvalidValue;

const DIGITS = /^\d+$/;

/**
 * An N field: right-aligned digits. All blanks is "not set" (null); all zeros is 0. Blanks around the digits
 * are tolerated because some producers fill with blanks instead of zeros.
 */
export function decodeUnsigned(raw: string): Decoded<number> {
  const digits = raw.trim();
  if (digits === '') return null;
  if (!DIGITS.test(digits)) return new InvalidValue(raw, 'digits');
  return Number(digits);
}

/**
 * An F(n) field as a decimal string with n places, e.g. `10000` F(3) → "10.000". Exact for any length,
 * which a float would not be.
 */
export function decodeImpliedDecimal(raw: string, decimals: number): Decoded<string> {
  const digits = raw.trim();
  if (digits === '') return null;
  if (!DIGITS.test(digits)) return new InvalidValue(raw, `digits with ${decimals} implied decimals`);
  const padded = digits.padStart(decimals + 1, '0');
  const integral = padded.slice(0, padded.length - decimals).replace(/^0+(?=\d)/, '');
  return decimals === 0 ? integral : `${integral}.${padded.slice(padded.length - decimals)}`;
}

/** An F(2) money field as integer cents: `000000041141` → 41141. */
export function decodeCents(raw: string): Decoded<number> {
  const cents = decodeUnsigned(raw);
  if (cents instanceof InvalidValue) return new InvalidValue(raw, 'digits with 2 implied decimals');
  if (cents !== null && !Number.isSafeInteger(cents))
    return new InvalidValue(raw, 'an amount below 2^53 cents');
  return cents;
}

/** An amount with its separate sign byte, which follows it: `+` or blank is positive, `-` negative. */
export function decodeSignedCents(raw: string, sign: string): Decoded<number> {
  const cents = decodeCents(raw);
  if (cents === null || cents instanceof InvalidValue) return cents;
  if (sign === '-') return -cents;
  if (sign === '+' || sign === ' ' || sign === '') return cents;
  return new InvalidValue(sign, 'a sign + or -');
}

/**
 * A date. Day and month `00` mean "unknown": the date then falls on the 1st (of January when the month is
 * unknown) and `precision` says which parts are real.
 */
export interface GdvDate {
  /** YYYY-MM-DD */
  iso: string;
  precision: 'day' | 'month' | 'year';
}

/** TTMMJJJJ. `00000000` or blanks mean "not set" (null). */
export function decodeDate(raw: string): Decoded<GdvDate> {
  if (raw.trim() === '' || /^0+$/.test(raw)) return null;
  if (raw.length !== 8 || !DIGITS.test(raw)) return new InvalidValue(raw, 'a date TTMMJJJJ');
  return buildDate(raw, raw.slice(0, 2), raw.slice(2, 4), raw.slice(4, 8));
}

/** MMJJJJ (e.g. "Produktform gültig ab"). */
export function decodeMonthYear(raw: string): Decoded<GdvDate> {
  if (raw.trim() === '' || /^0+$/.test(raw)) return null;
  if (raw.length !== 6 || !DIGITS.test(raw)) return new InvalidValue(raw, 'a date MMJJJJ');
  return buildDate(raw, '00', raw.slice(0, 2), raw.slice(2, 6));
}

function buildDate(raw: string, day: string, month: string, year: string): Decoded<GdvDate> {
  const precision = month === '00' ? 'year' : day === '00' ? 'month' : 'day';
  const realMonth = month === '00' ? '01' : month;
  const realDay = precision === 'day' ? day : '01';
  if (year === '0000' || !isCalendarDate(Number(year), Number(realMonth), Number(realDay))) {
    return new InvalidValue(raw, 'an existing date');
  }
  return { iso: `${year}-${realMonth}-${realDay}`, precision };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const isLeapYear = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && isLeapYear ? 29 : DAYS_IN_MONTH[month - 1];
  return day <= days;
}
