import { KEY, RECORD_LENGTH, type Span } from './layout.js';

/** The key fields (bytes 1–42) of a record the writer produces. */
export interface RecordKeyInput {
  vuNumber: string;
  sparte: string;
  policyNumber: string;
  /** Folgenummer; 1 when omitted. */
  sequenceNumber?: number;
  /** Geschäftsstelle/Vermittler. */
  broker: string;
  /** Bündelungskennzeichen: a bundled contract's 0100/0200 (with Sparte 000). */
  bundled?: boolean;
}

/** A 256-character record line under construction; positions are 1-based and inclusive. */
export class RecordLine {
  private text = ' '.repeat(RECORD_LENGTH);

  static withKey(satzart: string, key: RecordKeyInput): RecordLine {
    return new RecordLine()
      .digits(KEY.satzart, Number(satzart))
      .alpha(KEY.vuNumber, key.vuNumber)
      .alpha(KEY.bundled, key.bundled ? '1' : ' ')
      .digits(KEY.sparte, Number(key.sparte))
      .right(KEY.policyNumber, key.policyNumber)
      .digits(KEY.sequenceNumber, key.sequenceNumber ?? 1)
      .alpha(KEY.broker, key.broker);
  }

  /** Left-aligned, blank-padded, cut at the field length. */
  alpha(span: Span, value: string): this {
    return this.put(span, value.slice(0, spanLength(span)).padEnd(spanLength(span), ' '));
  }

  /** Right-aligned and blank-filled (VSNr, Kundennummern). */
  right(span: Span, value: string): this {
    if (value.length > spanLength(span))
      throw new RangeError(`"${value}" is longer than ${spanLength(span)}`);
    return this.put(span, value.padStart(spanLength(span), ' '));
  }

  /** Right-aligned and zero-filled; amounts go in as integer cents for F(2) fields. */
  digits(span: Span, value: number): this {
    const digits = String(value);
    if (!Number.isSafeInteger(value) || value < 0 || digits.length > spanLength(span)) {
      throw new RangeError(`${value} does not fit ${spanLength(span)} digits`);
    }
    return this.put(span, digits.padStart(spanLength(span), '0'));
  }

  /** TTMMJJJJ from YYYY-MM-DD; `00000000` when absent. */
  date(span: Span, iso: string | null | undefined): this {
    if (!iso) return this.put(span, '00000000');
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
    if (!match) throw new RangeError(`"${iso}" is not a date YYYY-MM-DD`);
    const [, year, month, day] = match;
    return this.put(span, `${day}${month}${year}`);
  }

  toString(): string {
    return this.text;
  }

  private put([from, to]: Span, value: string): this {
    if (value.length !== to - from + 1)
      throw new RangeError(`value for ${from}–${to} has ${value.length} characters`);
    this.text = this.text.slice(0, from - 1) + value + this.text.slice(to);
    return this;
  }
}

function spanLength([from, to]: Span): number {
  return to - from + 1;
}
