import { field, KEY, trimmedField } from './layout.js';
import { partNumberOf } from './part-number.js';

/** One physical record (Teildatensatz): a decoded line of exactly 256 characters. */
export interface Teildatensatz {
  /** 1–9, or null when the line carries no part number at its position (see part-number.ts). */
  number: number | null;
  /** Physical line number in the file, 1-based, counting blank lines too. */
  line: number;
  text: string;
}

/** One logical record (Datensatz): consecutive Teildatensätze with equal bytes 1–42 and rising numbers. */
export interface GdvRecord {
  /** Satzart and Sparte, e.g. `0210.040` (gdv.xport's "SatzTyp" without Wagnisart). */
  type: string;
  satzart: string;
  sparte: string;
  vuNumber: string;
  /** Bündelungskennzeichen `1`: a bundled contract (Sparte 000 in 0100/0200). */
  bundled: boolean;
  /** Versicherungsschein-Nummer without its alignment blanks. */
  policyNumber: string;
  /** Folgenummer, the two digits as delivered. */
  sequenceNumber: string;
  /** Geschäftsstelle/Vermittler, trimmed. */
  broker: string;
  /** False for Satzarten outside the GDV standard (insurer-specific 08xx and unknown ones), kept raw. */
  standard: boolean;
  parts: Teildatensatz[];
}

export function partOf(record: GdvRecord, number: number): Teildatensatz | undefined {
  return record.parts.find((part) => part.number === number);
}

export function linesOf(record: GdvRecord): number[] {
  return record.parts.map((part) => part.line);
}

/** The Satzarten of the GDV standard (facts §2–§3 and the Vorsatz version list); 0800–0899 are insurer-specific. */
const STANDARD_SATZARTEN = new Set([
  ...['0001', '0100', '0200', '0202', '0210', '0211', '0212', '0220', '0221', '0230', '0250', '0251', '0260'],
  ...Array.from({ length: 26 }, (_, offset) => `02${70 + offset}`),
  ...['0300', '0350', '0390', '0400', '0410', '0420', '0430', '0450', '0500', '0550', '9951', '9999'],
]);

export function isStandardSatzart(satzart: string): boolean {
  return STANDARD_SATZARTEN.has(satzart);
}

export function toTeildatensatz(text: string, line: number): Teildatensatz {
  return { number: partNumberOf(text), line, text };
}

function startRecord(part: Teildatensatz): GdvRecord {
  const { text } = part;
  const satzart = field(text, KEY.satzart);
  const sparte = field(text, KEY.sparte);
  return {
    type: `${satzart}.${sparte}`,
    satzart,
    sparte,
    vuNumber: trimmedField(text, KEY.vuNumber),
    bundled: field(text, KEY.bundled) === '1',
    policyNumber: trimmedField(text, KEY.policyNumber),
    sequenceNumber: field(text, KEY.sequenceNumber),
    broker: trimmedField(text, KEY.broker),
    standard: isStandardSatzart(satzart),
    parts: [part],
  };
}

/**
 * Groups Teildatensätze into Datensätze by gdv.xport's rule (facts §2.4): a line continues the current
 * record when its bytes 1–42 equal the record's and its part number is higher than the last one; gaps are
 * allowed. A line without a part number always starts a record of its own. Holds one record at a time.
 */
export class TeildatensatzGrouper {
  private current: GdvRecord | null = null;

  /** Adds a line; returns the record it completed, if any. */
  add(part: Teildatensatz): GdvRecord | null {
    if (this.current && continues(this.current, part)) {
      this.current.parts.push(part);
      return null;
    }
    const completed = this.current;
    this.current = startRecord(part);
    return completed;
  }

  /** Completes the record in progress. */
  flush(): GdvRecord | null {
    const completed = this.current;
    this.current = null;
    return completed;
  }
}

function continues(record: GdvRecord, part: Teildatensatz): boolean {
  const last = record.parts[record.parts.length - 1];
  if (!last || last.number === null || part.number === null || part.number <= last.number) return false;
  return field(part.text, KEY.whole) === field(last.text, KEY.whole);
}
