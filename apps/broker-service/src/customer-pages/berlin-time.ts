import { SERVICE_ZONE } from '@broker/datetime';

const BERLIN = new Intl.DateTimeFormat('de-DE', {
  timeZone: SERVICE_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** "21.11.2026, 10:15:03 MEZ": German notation in Europe/Berlin. */
export function berlinDateTime(instant: Date): string {
  return BERLIN.format(instant);
}
