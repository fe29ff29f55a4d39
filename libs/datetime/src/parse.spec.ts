import { DateParseError } from './errors.js';
import { formatDateTime } from './format.js';
import { parseDate, parseDateTime, todayIn } from './parse.js';

/** The instant as ISO 8601 UTC with milliseconds, which shows every difference. */
function iso(date: Date): string {
  return date.toISOString();
}

function refusal(run: () => unknown): DateParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof DateParseError) return error;
    throw error;
  }
  throw new Error('expected a DateParseError, nothing was thrown');
}

describe('parseDateTime', () => {
  describe('accepted notations (zone Europe/Berlin)', () => {
    it.each([
      // ISO 8601 with offset or Z: the offset decides, the zone does not matter.
      ['2024-03-31T02:30:00+02:00', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31T00:30:00Z', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31T00:30Z', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31T00:30:00.123Z', '2024-03-31T00:30:00.123Z'],
      ['2024-03-31T00:30:00.123456789Z', '2024-03-31T00:30:00.123Z'],
      ['2024-03-31T00:30:00,5Z', '2024-03-31T00:30:00.500Z'],
      ['2024-03-31t00:30:00z', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31T05:30:00+0500', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31T05:30:00+05', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31T06:00:00+05:30', '2024-03-31T00:30:00.000Z'],
      ['2024-03-30T19:30:00-05:00', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31T00:30:00-00:00', '2024-03-31T00:30:00.000Z'],
      ['2024-03-31 02:30:00+02', '2024-03-31T00:30:00.000Z'],
      // ISO 8601 without offset: local time in the zone.
      ['2024-03-31T12:00:00', '2024-03-31T10:00:00.000Z'],
      ['2024-03-31T12:00', '2024-03-31T10:00:00.000Z'],
      ['2024-03-31 12:00', '2024-03-31T10:00:00.000Z'],
      ['2024-03-31 12:00:00.250', '2024-03-31T10:00:00.250Z'],
      ['2024-01-15T12:00:00', '2024-01-15T11:00:00.000Z'],
      // Date only: midnight in the zone.
      ['2024-03-31', '2024-03-30T23:00:00.000Z'],
      ['2024-01-15', '2024-01-14T23:00:00.000Z'],
      ['2024-02-29', '2024-02-28T23:00:00.000Z'],
      // ISO 8601 basic format.
      ['20240331', '2024-03-30T23:00:00.000Z'],
      ['20240331T1200', '2024-03-31T10:00:00.000Z'],
      ['20240331T120000Z', '2024-03-31T12:00:00.000Z'],
      ['20240331T140000+0200', '2024-03-31T12:00:00.000Z'],
      // German.
      ['31.03.2024', '2024-03-30T23:00:00.000Z'],
      ['31.3.2024', '2024-03-30T23:00:00.000Z'],
      ['1.4.2024', '2024-03-31T22:00:00.000Z'],
      ['29.02.2024', '2024-02-28T23:00:00.000Z'],
      ['31.03.2024 12:00', '2024-03-31T10:00:00.000Z'],
      ['31.03.2024 12:00:00', '2024-03-31T10:00:00.000Z'],
      ['31.3.2024, 12:00:00', '2024-03-31T10:00:00.000Z'],
      ['31.03.2024 9:05', '2024-03-31T07:05:00.000Z'],
      // RFC 2822 and HTTP dates.
      ['Sun, 31 Mar 2024 10:00:00 GMT', '2024-03-31T10:00:00.000Z'],
      ['31 Mar 2024 12:00:00 +0200', '2024-03-31T10:00:00.000Z'],
      ['Sun, 31 Mar 2024 12:00 +0200', '2024-03-31T10:00:00.000Z'],
      ['Sun, 31 Mar 2024 06:00:00 EDT', '2024-03-31T10:00:00.000Z'],
      ['Sun Mar 31 10:00:00 2024', '2024-03-31T10:00:00.000Z'],
      // Surrounding whitespace is trimmed.
      ['  2024-03-31T12:00:00 \n', '2024-03-31T10:00:00.000Z'],
      ['\t31.03.2024 ', '2024-03-30T23:00:00.000Z'],
    ])('%j → %s', (text, expected) => {
      expect(iso(parseDateTime(text))).toBe(expected);
    });
  });

  describe('refusals', () => {
    it.each([
      // No accepted notation.
      ['garbage', 'unrecognised'],
      ['', 'unrecognised'],
      ['   ', 'unrecognised'],
      ['24:61', 'unrecognised'],
      ['12:00', 'unrecognised'],
      ['2024', 'unrecognised'],
      ['2024-03', 'unrecognised'],
      ['2024-03-31T12', 'unrecognised'],
      ['2024-W13-7', 'unrecognised'],
      ['03/31/2024', 'unrecognised'],
      ['31/03/2024', 'unrecognised'],
      ['31.03.24', 'unrecognised'],
      ['Sunday, 31-Mar-24 10:00:00 GMT', 'unrecognised'],
      ['1711879200000', 'unrecognised'],
      ['2024-03-31T12:00:00 Europe/Berlin', 'unrecognised'],
      ['2024-03-31T12:00:00+02:00[Europe/Berlin]', 'unrecognised'],
      ['2024-03-31T12:00:00 +02:00', 'unrecognised'],
      ['2024-03-31  12:00', 'unrecognised'],
      ['2024-03-31T12:00:00.Z', 'unrecognised'],
      ['2024-03-31T12:00:00.1234567891Z', 'unrecognised'],
      // The notation fits, the values are impossible.
      ['31.02.2024', 'invalid-value'],
      ['29.02.2023', 'invalid-value'],
      ['00.01.2024', 'invalid-value'],
      ['2024-02-30', 'invalid-value'],
      ['2024-04-31', 'invalid-value'],
      ['2024-13-01', 'invalid-value'],
      ['2024-00-10', 'invalid-value'],
      ['0000-01-01', 'invalid-value'],
      ['2024-03-31T24:00:00', 'invalid-value'],
      ['2024-03-31T23:60', 'invalid-value'],
      ['2024-03-31T23:59:60', 'invalid-value'],
      ['31.03.2024 25:00', 'invalid-value'],
      ['2024-03-31T12:00:00+19:00', 'invalid-value'],
      ['2024-03-31T12:00:00+02:60', 'invalid-value'],
      ['Sat, 31 Feb 2024 10:00:00 GMT', 'invalid-value'],
      ['Mon, 31 Mar 2024 10:00:00 GMT', 'invalid-value'],
    ])('refuses %j (%s)', (text, reason) => {
      const error = refusal(() => parseDateTime(text));
      expect(error.reason).toBe(reason);
      expect(error.text).toBe(text.trim());
      expect(error.message).toBe(`${JSON.stringify(text.trim())} is not a date or date-time`);
    });

    it('names the text in the message', () => {
      expect(() => parseDateTime('31.02.2024')).toThrow('"31.02.2024" is not a date or date-time');
      expect(() => parseDateTime(' 31.02.2024 ')).toThrow('"31.02.2024" is not a date or date-time');
    });

    it('quotes control characters and cuts long texts in the message', () => {
      expect(refusal(() => parseDateTime('a\u0000b')).message).toBe('"a\\u0000b" is not a date or date-time');
      const long = refusal(() => parseDateTime('x'.repeat(10_000)));
      expect(long.message).toBe(`"${'x'.repeat(80)}…" is not a date or date-time`);
      expect(long.text).toHaveLength(10_000);
    });

    it('refuses a value that is not a string (an unchecked JSON body)', () => {
      expect(refusal(() => parseDateTime(20240331 as unknown as string)).reason).toBe('unrecognised');
      expect(refusal(() => parseDateTime(null as unknown as string)).message).toBe(
        '"null" is not a date or date-time',
      );
    });

    it('is an Error with its own name', () => {
      const error = refusal(() => parseDateTime('garbage'));
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('DateParseError');
    });
  });

  describe('spring forward in Europe/Berlin, 31 March 2024 (02:00 → 03:00)', () => {
    it.each([
      '2024-03-31T02:00:00',
      '2024-03-31T02:30:00',
      '2024-03-31T02:59:59',
      '2024-03-31 02:30',
      '31.03.2024 02:30',
    ])('refuses the skipped local time %j', (text) => {
      const error = refusal(() => parseDateTime(text));
      expect(error.reason).toBe('nonexistent-local-time');
      expect(error.message).toBe(
        `${JSON.stringify(text)} does not exist in time zone Europe/Berlin: the clocks skip it (as when summer time begins)`,
      );
    });

    it.each([
      ['2024-03-31T01:59:59', '2024-03-31T00:59:59.000Z'],
      ['2024-03-31T03:00:00', '2024-03-31T01:00:00.000Z'],
      ['2024-03-31T03:30:00', '2024-03-31T01:30:00.000Z'],
      ['2024-03-31', '2024-03-30T23:00:00.000Z'],
    ])('accepts %j next to the gap → %s', (text, expected) => {
      expect(iso(parseDateTime(text))).toBe(expected);
    });

    it.each([
      ['2024-03-31T02:30:00+01:00', '2024-03-31T01:30:00.000Z', '2024-03-31T03:30:00'],
      ['2024-03-31T02:30:00+02:00', '2024-03-31T00:30:00.000Z', '2024-03-31T01:30:00'],
    ])('accepts %j: with an offset it is a real instant (%s, Berlin %s)', (text, instant, berlin) => {
      const parsed = parseDateTime(text);
      expect(iso(parsed)).toBe(instant);
      expect(formatDateTime(parsed)).toBe(berlin);
    });

    it('reads back every minute it writes around the gap', () => {
      const start = Date.parse('2024-03-30T22:00:00Z');
      for (let ms = start; ms < start + 6 * 3_600_000; ms += 60_000) {
        expect(parseDateTime(formatDateTime(new Date(ms))).getTime()).toBe(ms);
      }
    });
  });

  describe('fall back in Europe/Berlin, 27 October 2024 (03:00 → 02:00)', () => {
    it.each([
      ['2024-10-27T01:59:59', '2024-10-26T23:59:59.000Z'],
      ['2024-10-27T02:00:00', '2024-10-27T00:00:00.000Z'],
      ['2024-10-27T02:30:00', '2024-10-27T00:30:00.000Z'],
      ['2024-10-27 02:30', '2024-10-27T00:30:00.000Z'],
      ['27.10.2024 02:30', '2024-10-27T00:30:00.000Z'],
      ['2024-10-27T02:59:59', '2024-10-27T00:59:59.000Z'],
      ['2024-10-27T03:00:00', '2024-10-27T02:00:00.000Z'],
    ])('takes the earlier (summer time) instant for %j → %s', (text, expected) => {
      expect(iso(parseDateTime(text))).toBe(expected);
    });

    it.each([
      ['2024-10-27T02:30:00+02:00', '2024-10-27T00:30:00.000Z'],
      ['2024-10-27T02:30:00+01:00', '2024-10-27T01:30:00.000Z'],
    ])('lets an offset choose the occurrence: %j → %s', (text, expected) => {
      expect(iso(parseDateTime(text))).toBe(expected);
    });

    it.each(['2024-01-15T12:00:00Z', '2024-07-15T12:00:00Z'])(
      'does not depend on the current date (now = %s), unlike luxon’s own guess',
      (now) => {
        jest.useFakeTimers({ now: new Date(now) });
        try {
          expect(iso(parseDateTime('2024-10-27T02:30:00'))).toBe('2024-10-27T00:30:00.000Z');
          expect(iso(parseDateTime('2024-11-03T01:30:00', 'America/New_York'))).toBe(
            '2024-11-03T05:30:00.000Z',
          );
        } finally {
          jest.useRealTimers();
        }
      },
    );

    it('reads the repeated hour back as its first occurrence, everything else exactly', () => {
      const start = Date.parse('2024-10-26T22:00:00Z');
      const secondOccurrence = [Date.parse('2024-10-27T01:00:00Z'), Date.parse('2024-10-27T02:00:00Z')];
      for (let ms = start; ms < start + 6 * 3_600_000; ms += 60_000) {
        const repeated = ms >= secondOccurrence[0] && ms < secondOccurrence[1];
        const expected = repeated ? ms - 3_600_000 : ms;
        expect(parseDateTime(formatDateTime(new Date(ms))).getTime()).toBe(expected);
      }
    });
  });

  describe('input in another zone, output in Berlin', () => {
    it.each([
      ['2024-03-31T12:00:00', 'America/New_York', '2024-03-31T16:00:00.000Z', '2024-03-31T18:00:00'],
      ['2024-01-15 08:00', 'America/New_York', '2024-01-15T13:00:00.000Z', '2024-01-15T14:00:00'],
      ['2024-03-31', 'America/New_York', '2024-03-31T04:00:00.000Z', '2024-03-31T06:00:00'],
      ['2024-03-31T02:30:00', 'America/New_York', '2024-03-31T06:30:00.000Z', '2024-03-31T08:30:00'],
      ['2024-11-03T01:30:00', 'America/New_York', '2024-11-03T05:30:00.000Z', '2024-11-03T06:30:00'],
      ['2024-03-31T12:00:00', 'Asia/Tokyo', '2024-03-31T03:00:00.000Z', '2024-03-31T05:00:00'],
      ['2024-03-31T09:30:00', 'Asia/Tokyo', '2024-03-31T00:30:00.000Z', '2024-03-31T01:30:00'],
      ['2024-10-27T09:30:00', 'Asia/Tokyo', '2024-10-27T00:30:00.000Z', '2024-10-27T02:30:00'],
      ['2024-10-27T10:30:00', 'Asia/Tokyo', '2024-10-27T01:30:00.000Z', '2024-10-27T02:30:00'],
      ['31.03.2024', 'Asia/Tokyo', '2024-03-30T15:00:00.000Z', '2024-03-30T16:00:00'],
      ['31.03.2024 12:00', 'Asia/Kolkata', '2024-03-31T06:30:00.000Z', '2024-03-31T08:30:00'],
      ['2024-03-31T02:30:00', 'UTC', '2024-03-31T02:30:00.000Z', '2024-03-31T04:30:00'],
    ])('%j in %s → %s (Berlin %s)', (text, zone, instant, berlin) => {
      const parsed = parseDateTime(text, zone);
      expect(iso(parsed)).toBe(instant);
      expect(formatDateTime(parsed)).toBe(berlin);
    });

    it.each([
      ['2024-03-31T12:00:00+02:00', '2024-03-31T10:00:00.000Z'],
      ['2024-03-31T10:00:00Z', '2024-03-31T10:00:00.000Z'],
      ['Sun, 31 Mar 2024 10:00:00 GMT', '2024-03-31T10:00:00.000Z'],
    ])('ignores the zone when the text fixes the instant: %j', (text, expected) => {
      expect(iso(parseDateTime(text, 'Asia/Tokyo'))).toBe(expected);
      expect(iso(parseDateTime(text, 'America/New_York'))).toBe(expected);
    });

    it('refuses a time in the gap of the given zone and names that zone', () => {
      const error = refusal(() => parseDateTime('2024-03-10T02:30:00', 'America/New_York'));
      expect(error.reason).toBe('nonexistent-local-time');
      expect(error.message).toContain('does not exist in time zone America/New_York');
      expect(iso(parseDateTime('2024-03-10T02:30:00'))).toBe('2024-03-10T01:30:00.000Z');
    });

    it('takes the earlier instant in the fall-back hour of the given zone', () => {
      expect(iso(parseDateTime('2024-11-03T01:30:00', 'America/New_York'))).toBe('2024-11-03T05:30:00.000Z');
    });

    it('starts a day whose midnight is skipped at the end of the gap (America/Santiago, 8 September 2024)', () => {
      expect(iso(parseDateTime('2024-09-08', 'America/Santiago'))).toBe('2024-09-08T04:00:00.000Z');
      expect(refusal(() => parseDateTime('2024-09-08T00:30:00', 'America/Santiago')).reason).toBe(
        'nonexistent-local-time',
      );
      expect(iso(parseDateTime('2024-09-08T01:00:00', 'America/Santiago'))).toBe('2024-09-08T04:00:00.000Z');
    });

    it.each(['Mars/Olympus', 'Berlin', '+01:00', ''])(
      'throws a RangeError for the unknown zone %j',
      (zone) => {
        expect(() => parseDateTime('2024-03-31T12:00:00', zone)).toThrow(RangeError);
        expect(() => parseDateTime('2024-03-31T12:00:00', zone)).toThrow(
          `${JSON.stringify(zone)} is not an IANA time zone name`,
        );
      },
    );
  });
});

describe('parseDate', () => {
  it.each([
    ['2024-03-31', '2024-03-31'],
    ['31.03.2024', '2024-03-31'],
    ['31.3.2024', '2024-03-31'],
    ['1.4.2024', '2024-04-01'],
    ['20240331', '2024-03-31'],
    ['29.02.2024', '2024-02-29'],
    [' 2024-03-31 ', '2024-03-31'],
    ['2024-03-31T23:30:00', '2024-03-31'],
    ['31.03.2024 00:00', '2024-03-31'],
    ['2024-10-27T02:30:00', '2024-10-27'],
    ['2024-06-30T22:30:00Z', '2024-07-01'],
    ['2024-06-30T21:59:59Z', '2024-06-30'],
    ['2024-06-30T23:30:00-05:00', '2024-07-01'],
    ['Sun, 30 Jun 2024 22:30:00 GMT', '2024-07-01'],
  ])('%j → %s (zone Europe/Berlin)', (text, expected) => {
    expect(parseDate(text)).toBe(expected);
  });

  it.each([
    ['2024-06-30T22:30:00Z', 'America/New_York', '2024-06-30'],
    ['2024-06-30T22:30:00Z', 'UTC', '2024-06-30'],
    ['2024-06-30T15:30:00Z', 'Asia/Tokyo', '2024-07-01'],
    ['2024-06-30T23:30:00-05:00', 'America/New_York', '2024-07-01'],
    ['2024-06-30T23:30:00-05:00', 'America/Los_Angeles', '2024-06-30'],
  ])('gives the date of an instant in the given zone: %j in %s → %s', (text, zone, expected) => {
    expect(parseDate(text, zone)).toBe(expected);
  });

  it.each([
    ['2024-03-31T23:30:00', 'Asia/Tokyo'],
    ['31.03.2024', 'America/New_York'],
    ['2024-03-31', 'Pacific/Kiritimati'],
  ])('keeps the written date of %j in %s', (text, zone) => {
    expect(parseDate(text, zone)).toBe('2024-03-31');
  });

  it('keeps a day whose midnight is skipped (America/Santiago, 8 September 2024)', () => {
    expect(parseDate('2024-09-08', 'America/Santiago')).toBe('2024-09-08');
  });

  it('refuses a date-time the zone skips, as parseDateTime does', () => {
    expect(refusal(() => parseDate('2024-03-31T02:30:00')).reason).toBe('nonexistent-local-time');
    expect(parseDate('2024-03-31T02:30:00', 'UTC')).toBe('2024-03-31');
  });

  it.each([
    ['31.02.2024', 'invalid-value'],
    ['2024-13-01', 'invalid-value'],
    ['2023-02-29', 'invalid-value'],
    ['garbage', 'unrecognised'],
    ['', 'unrecognised'],
    ['24:61', 'unrecognised'],
    ['2024-03', 'unrecognised'],
  ])('refuses %j (%s)', (text, reason) => {
    const error = refusal(() => parseDate(text));
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(`${JSON.stringify(text)} is not a date`);
  });

  it('refuses an instant whose date in the zone falls outside the years 1–9999', () => {
    expect(refusal(() => parseDate('9999-12-31T23:30:00Z')).reason).toBe('invalid-value');
    expect(parseDate('9999-12-31T23:30:00Z', 'UTC')).toBe('9999-12-31');
  });

  it('throws a RangeError for an unknown zone', () => {
    expect(() => parseDate('2024-03-31', 'Nowhere/Special')).toThrow(RangeError);
  });
});

describe('todayIn', () => {
  it('is the calendar date in the zone, which may be a day ahead of or behind UTC', () => {
    const lateUtc = new Date('2026-11-22T23:30:00Z');
    expect(todayIn('Europe/Berlin', lateUtc)).toBe('2026-11-23');
    expect(todayIn('America/New_York', lateUtc)).toBe('2026-11-22');
    expect(todayIn('Pacific/Kiritimati', new Date('2026-11-22T10:30:00Z'))).toBe('2026-11-23');
    expect(todayIn(undefined, new Date('2026-06-30T22:00:00Z'))).toBe('2026-07-01');
  });
});
