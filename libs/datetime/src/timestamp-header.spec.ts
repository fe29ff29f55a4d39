import { DateParseError } from './errors.js';
import { parseTimestampHeader } from './parse.js';

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof DateParseError) return error.reason;
    throw error;
  }
  return 'accepted';
}

describe('parseTimestampHeader', () => {
  it.each([
    ['2024-03-31T00:30:00Z', 'Europe/Berlin', '2024-03-31T00:30:00.000Z'],
    ['2024-03-31T00:30:00.000Z', 'Europe/Berlin', '2024-03-31T00:30:00.000Z'],
    ['2024-03-31T02:30:00+02:00', 'Europe/Berlin', '2024-03-31T00:30:00.000Z'],
    ['2024-03-31T02:30:00.123+02:00', 'Europe/Berlin', '2024-03-31T00:30:00.123Z'],
    ['2024-03-30T19:30:00-05:00', 'Europe/Berlin', '2024-03-31T00:30:00.000Z'],
    ['2024-03-31T00:30:00Z', 'Asia/Tokyo', '2024-03-31T00:30:00.000Z'],
    // The DateTime output form, read in the zone.
    ['2024-03-31T12:00:00', 'Europe/Berlin', '2024-03-31T10:00:00.000Z'],
    ['2024-03-31T12:00:00', 'America/New_York', '2024-03-31T16:00:00.000Z'],
    ['2024-10-27T02:30:00', 'Europe/Berlin', '2024-10-27T00:30:00.000Z'],
  ])('accepts %j in %s → %s', (text, zone, expected) => {
    expect(parseTimestampHeader(text, zone).toISOString()).toBe(expected);
  });

  it('reads the output form in Europe/Berlin by default', () => {
    expect(parseTimestampHeader('2024-01-15T12:00:00').toISOString()).toBe('2024-01-15T11:00:00.000Z');
  });

  it('accepts what Date.prototype.toISOString writes', () => {
    const now = new Date(Date.UTC(2024, 5, 30, 22, 30, 15, 42));
    expect(parseTimestampHeader(now.toISOString()).getTime()).toBe(now.getTime());
  });

  it.each([
    '2024-03-31',
    '2024-03-31 12:00:00',
    '2024-03-31T12:00',
    '2024-03-31T12:00Z',
    '2024-03-31T12:00:00.000',
    '2024-03-31t12:00:00z',
    '2024-03-31T12:00:00+0200',
    '2024-03-31T12:00:00+02',
    ' 2024-03-31T12:00:00Z',
    '2024-03-31T12:00:00Z ',
    '20240331T120000Z',
    '31.03.2024 12:00:00',
    '31.03.2024',
    'Sun, 31 Mar 2024 10:00:00 GMT',
    '1711879200',
    '',
    'garbage',
  ])('refuses %j (not one of the two forms)', (text) => {
    expect(reasonOf(() => parseTimestampHeader(text))).toBe('unrecognised');
  });

  it.each([
    '2024-02-30T12:00:00Z',
    '2024-03-31T24:00:00Z',
    '2024-03-31T12:00:60Z',
    '2024-03-31T12:00:00+24:00',
  ])('refuses the impossible %j', (text) => {
    expect(reasonOf(() => parseTimestampHeader(text))).toBe('invalid-value');
  });

  it('refuses a local time in the spring-forward gap of the zone', () => {
    expect(reasonOf(() => parseTimestampHeader('2024-03-31T02:30:00'))).toBe('nonexistent-local-time');
    expect(reasonOf(() => parseTimestampHeader('2024-03-10T02:30:00', 'America/New_York'))).toBe(
      'nonexistent-local-time',
    );
    expect(parseTimestampHeader('2024-03-31T02:30:00', 'America/New_York').toISOString()).toBe(
      '2024-03-31T06:30:00.000Z',
    );
  });

  it('names the text and the expected forms in the message', () => {
    expect(() => parseTimestampHeader('yesterday')).toThrow(
      '"yesterday" is not a timestamp (ISO 8601 with offset, or YYYY-MM-DDTHH:mm:ss)',
    );
  });

  it('throws a RangeError for an unknown zone', () => {
    expect(() => parseTimestampHeader('2024-03-31T12:00:00Z', 'Not/AZone')).toThrow(RangeError);
  });
});
