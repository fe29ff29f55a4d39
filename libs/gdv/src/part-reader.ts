import { type GdvWarning, warning } from './events.js';
import { decodeCents, decodeDate, type Decoded, type GdvDate, InvalidValue } from './fields.js';
import { field, RECORD_LENGTH, type Span, trimmedField } from './layout.js';
import type { Teildatensatz } from './records.js';

const BLANK_LINE = ' '.repeat(RECORD_LENGTH);

/**
 * Reads typed fields from one Teildatensatz for the mapping. A field that does not decode becomes null and
 * a warning with the line number; a part the record lacks reads as blanks.
 */
export class PartReader {
  private readonly line: string;
  private readonly lines: number[];

  constructor(
    part: Teildatensatz | undefined,
    private readonly warnings: GdvWarning[],
  ) {
    this.line = part ? part.text : BLANK_LINE;
    this.lines = part ? [part.line] : [];
  }

  raw(span: Span): string {
    return field(this.line, span);
  }

  /** Trimmed text; null when blank. */
  text(span: Span): string | null {
    return trimmedField(this.line, span) || null;
  }

  date(span: Span, name: string): GdvDate | null {
    return this.valid(decodeDate(this.raw(span)), name);
  }

  cents(span: Span, name: string): number | null {
    return this.valid(decodeCents(this.raw(span)), name);
  }

  /** A code translated by its table; blank is null, an unknown code null with a warning. */
  code<T>(span: Span, table: ReadonlyMap<string, T>, name: string): T | null {
    const code = this.text(span);
    if (code === null) return null;
    const value = table.get(code);
    if (value !== undefined) return value;
    this.warnings.push(warning('unknown-code', this.lines, `${name}: unknown code "${code}"`));
    return null;
  }

  private valid<T>(decoded: Decoded<T>, name: string): T | null {
    if (!(decoded instanceof InvalidValue)) return decoded;
    const message = `${name}: "${decoded.raw}" is not ${decoded.expected}`;
    this.warnings.push(warning('invalid-field', this.lines, message));
    return null;
  }
}
