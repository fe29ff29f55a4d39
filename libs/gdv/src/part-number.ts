import { field, KEY, RECORD_LENGTH } from './layout.js';

/**
 * Where a Satzart keeps its Teildatensatz number: one byte, or the 0220.030/0221.030 scheme of parts 1, 2
 * and 4 at byte 49, part 3 at byte 43 and part 9 at byte 60 (facts §2.4).
 */
type PartNumberLocation = number | 'unfall-wagnis';

function locations(keys: readonly string[], location: PartNumberLocation): [string, PartNumberLocation][] {
  return keys.map((key) => [key, location]);
}

const sparten = (satzart: string, codes: readonly string[]): string[] =>
  codes.map((sparte) => `${satzart}.${sparte}`);

/** 0270 … 0295 for Sparte 550 (facts §2.4). */
const INVESTMENT_SATZARTEN = Array.from({ length: 26 }, (_, offset) => `02${70 + offset}.550`);

/**
 * Where the part number is not byte 256, keyed `Satzart.Sparte` or `Satzart` (all Sparten). From the facts
 * (§2.4, release 2023), plus 0220/0221 Sparte 210 and 230, which the samples show at byte 49 (README).
 */
const EXCEPTIONS: ReadonlyMap<string, PartNumberLocation> = new Map([
  ...locations(
    [
      ...sparten('0210', ['000', '080', '170', '190', '550', '560', '570', '580']),
      ...sparten('0211', ['000', '080', '170', '190']),
      ...sparten('0220', ['550', '560', '570', '580']),
      ...INVESTMENT_SATZARTEN,
    ],
    43,
  ),
  ...locations(['0220.000', '0221.000'], 47),
  ...locations(
    [...sparten('0220', ['080', '190', '210', '230']), ...sparten('0221', ['080', '190', '210', '230'])],
    49,
  ),
  ...locations(['0220.030', '0221.030'], 'unfall-wagnis'),
  ...locations(['0220.170', '0221.170'], 50),
  ...locations(['0220.040', '0220.140', '0221.040', '0221.140', '0250.190', '0251.190', '0450'], 51),
  ...locations(['0220.070', '0221.070'], 53),
  ...locations(['0500', '0550'], 66),
  ...locations(['0210.130'], 251),
]);

/** Satzarten whose layout depends on the Sparte. */
const LINE_OF_BUSINESS_SATZARTEN = new Set(['0210', '0211', '0220', '0221']);

/** Sparten with a layout of their own in 0210/0220; other Sparten use their main Sparte's or the 000 layout. */
const SPARTEN_WITH_OWN_LAYOUT = new Set([
  ...['010', '020', '030', '040', '050', '051', '052', '053', '054', '055', '059', '070', '080'],
  ...['110', '130', '140', '170', '190', '510', '550', '560', '570', '580'],
]);

function locationOf(satzart: string, sparte: string): PartNumberLocation {
  const exception = EXCEPTIONS.get(`${satzart}.${sparte}`) ?? EXCEPTIONS.get(satzart);
  if (exception !== undefined) return exception;
  if (!LINE_OF_BUSINESS_SATZARTEN.has(satzart) || SPARTEN_WITH_OWN_LAYOUT.has(sparte)) return RECORD_LENGTH;
  const mainSparte = `${sparte.slice(0, 2)}0`;
  if (mainSparte !== sparte) return locationOf(satzart, mainSparte);
  return EXCEPTIONS.get(`${satzart}.000`) ?? RECORD_LENGTH;
}

function digitAt(text: string, position: number): number | null {
  const character = text.charAt(position - 1);
  return character >= '1' && character <= '9' ? Number(character) : null;
}

function readUnfallWagnis(text: string): number | null {
  const at49 = digitAt(text, 49);
  if (at49 === 1 || at49 === 2 || at49 === 4) return at49;
  if (digitAt(text, 43) === 3) return 3;
  if (digitAt(text, 60) === 9) return 9;
  return null;
}

/**
 * The Teildatensatz number (1–9) of a decoded 256-character line, looked up by Satzart and Sparte; null when
 * that position holds no digit 1–9 (old producers wrote none; `0` is not a part number).
 */
export function partNumberOf(text: string): number | null {
  const location = locationOf(field(text, KEY.satzart), field(text, KEY.sparte));
  return location === 'unfall-wagnis' ? readUnfallWagnis(text) : digitAt(text, location);
}

/** The byte holding the part number of a Satzart/Sparte, or null when that depends on the part. */
export function partNumberPosition(satzart: string, sparte: string): number | null {
  const location = locationOf(satzart, sparte);
  return location === 'unfall-wagnis' ? null : location;
}
