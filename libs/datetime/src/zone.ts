import { IANAZone } from 'luxon';
import { wallClockMs, wallClockOf, type LocalDateTime } from './civil.js';

/** The zone of every DateTime and Date the services output. */
export const SERVICE_ZONE = 'Europe/Berlin';

const DAY_MS = 86_400_000;

/**
 * Names found valid: luxon checks a name by building a formatter, which costs more than the rest of a request's
 * date handling. Only valid names are kept, so the set is bounded by the runtime's zones.
 */
const knownZones = new Set<string>();

/** True for an IANA time zone name the runtime knows (`Europe/Berlin`, `America/New_York`, `UTC`). */
export function isValidZone(zone: string): boolean {
  if (typeof zone !== 'string') return false;
  if (knownZones.has(zone)) return true;
  // Node 24's Intl takes an offset (`+01:00`) as a time zone too; no IANA name starts with a sign.
  if (/^[+\-\u2212]/.test(zone)) return false;
  const valid = IANAZone.isValidZone(zone);
  if (valid) knownZones.add(zone);
  return valid;
}

/** The zone, or a RangeError: an unknown zone is the caller's mistake (check it with `isValidZone` first). */
export function ianaZone(zone: string): IANAZone {
  if (!isValidZone(zone)) throw new RangeError(`${JSON.stringify(zone)} is not an IANA time zone name`);
  return IANAZone.create(zone);
}

/** The zone's UTC offset at an instant, in milliseconds. */
export function offsetMs(zone: IANAZone, epochMs: number): number {
  return Math.round(zone.offset(epochMs) * 60_000);
}

/** The wall-clock reading of an instant in a zone. */
export function localIn(epochMs: number, zone: IANAZone): LocalDateTime {
  return wallClockOf(epochMs + offsetMs(zone, epochMs));
}

export type Resolution =
  | { kind: 'unique' | 'ambiguous'; epochMs: number }
  /** The local time does not exist; `shiftedMs` is it moved forward by the length of the gap. */
  | { kind: 'gap'; shiftedMs: number };

/**
 * The instant(s) at which the zone's clocks show `local`. Done here rather than by luxon because luxon picks
 * the offset of an ambiguous local time from a guess based on the current date (`guessOffsetForZone`), so
 * `2024-10-27T02:30` in Berlin would come out +02:00 in summer and +01:00 in winter. Here it is always the
 * earlier instant. The offsets one day before and after are the candidates; an offset is right when the zone
 * really has it at the instant it yields.
 */
export function resolveLocal(local: LocalDateTime, zone: IANAZone): Resolution {
  const wall = wallClockMs(local);
  const before = offsetMs(zone, wall - DAY_MS);
  const after = offsetMs(zone, wall + DAY_MS);
  const instants = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wall - instant === offsetMs(zone, instant))
    .sort((a, b) => a - b);
  if (instants.length === 0) return { kind: 'gap', shiftedMs: wall - before };
  return { kind: instants.length > 1 ? 'ambiguous' : 'unique', epochMs: instants[0] };
}
