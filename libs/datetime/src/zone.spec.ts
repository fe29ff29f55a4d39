import { isValidZone, SERVICE_ZONE } from './zone.js';

describe('SERVICE_ZONE', () => {
  it('is Europe/Berlin', () => {
    expect(SERVICE_ZONE).toBe('Europe/Berlin');
  });
});

describe('isValidZone', () => {
  it.each(['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Asia/Kolkata', 'UTC', 'Etc/GMT-14'])(
    'accepts the IANA zone %j',
    (zone) => {
      expect(isValidZone(zone)).toBe(true);
    },
  );

  it.each([
    '',
    'Berlin',
    'Mars/Olympus',
    'CEST',
    'MEZ',
    '+01:00',
    '-05:00',
    '+0100',
    '\u221201:00',
    'GMT+1',
    'Europe/Berlin ',
    'Europe/Berlin\n',
  ])('refuses %j', (zone) => {
    expect(isValidZone(zone)).toBe(false);
  });

  it('gives the same answer when asked again (valid names are remembered)', () => {
    for (const zone of ['Europe/Lisbon', 'Europe/Lisbon', 'Mars/Olympus', 'Mars/Olympus'])
      expect([zone, isValidZone(zone)]).toEqual([zone, zone === 'Europe/Lisbon']);
  });

  it('refuses a value that is not a string', () => {
    expect(isValidZone(undefined as unknown as string)).toBe(false);
    expect(isValidZone(1 as unknown as string)).toBe(false);
  });
});
