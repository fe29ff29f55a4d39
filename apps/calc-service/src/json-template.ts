import { randomUUID } from 'node:crypto';

/** What goes into a hole: JSON text, JSON bytes, or a function that writes the JSON. */
export type JsonPiece = string | Uint8Array | ((out: JsonWriter) => void);

const INITIAL_BYTES = 64 * 1024;

/**
 * UTF-8 JSON written piece by piece into one scratch buffer, reused from answer to answer: encoding only the
 * pieces that change and copying the rest costs a fraction of encoding a whole JSON string.
 */
export class JsonWriter {
  private scratch = Buffer.allocUnsafe(INITIAL_BYTES);
  private length = 0;

  write(piece: JsonPiece): void {
    if (typeof piece === 'string') {
      this.reserve(3 * piece.length); // at most 3 UTF-8 bytes per UTF-16 unit
      this.length += this.scratch.write(piece, this.length);
    } else if (piece instanceof Uint8Array) {
      this.reserve(piece.length);
      this.scratch.set(piece, this.length);
      this.length += piece.length;
    } else {
      piece(this);
    }
  }

  /** The bytes written since the last `finish` or `clear`, in a buffer of their own. */
  finish(): Buffer {
    const written = Buffer.allocUnsafe(this.length);
    this.scratch.copy(written, 0, 0, this.length);
    this.clear();
    return written;
  }

  /** Drops what was written since the last `finish`. */
  clear(): void {
    this.length = 0;
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.scratch.length) return;
    const larger = Buffer.allocUnsafe(Math.max(2 * this.scratch.length, this.length + bytes));
    this.scratch.copy(larger, 0, 0, this.length);
    this.scratch = larger;
  }
}

/**
 * The JSON text of a value with holes: serialised once, split at the holes into UTF-8 bytes, and on every use
 * written with the holes' JSON in between. The result is what `JSON.stringify` gives for the value with the
 * holes' values in place, without serialising or encoding the fixed part again.
 */
export class JsonTemplate<Hole extends string> {
  private constructor(
    /** The fixed text: one piece more than there are holes. */
    private readonly fixed: readonly Buffer[],
    /** The holes in the order they appear in the text. */
    private readonly holes: readonly Hole[],
  ) {}

  /**
   * `build` makes the value with `hole(name)` wherever a value differs between uses (typed as what goes there).
   * A hole is a string no other value holds (a random id with the hole's name) until the text is split at it.
   */
  static compile<Hole extends string>(build: (hole: <T>(name: Hole) => T) => unknown): JsonTemplate<Hole> {
    const id = randomUUID();
    const text = JSON.stringify(build((name) => `${id}:${name}` as never));
    const fixed: Buffer[] = [];
    const holes: Hole[] = [];
    let from = 0;
    for (const marker of text.matchAll(new RegExp(`"${id}:(\\w+)"`, 'g'))) {
      fixed.push(Buffer.from(text.slice(from, marker.index)));
      holes.push(marker[1] as Hole);
      from = marker.index + marker[0].length;
    }
    fixed.push(Buffer.from(text.slice(from)));
    return new JsonTemplate(fixed, holes);
  }

  writeTo(out: JsonWriter, values: Readonly<Record<Hole, JsonPiece>>): void {
    out.write(this.fixed[0]);
    for (let index = 0; index < this.holes.length; index++) {
      out.write(values[this.holes[index]]);
      out.write(this.fixed[index + 1]);
    }
  }
}
