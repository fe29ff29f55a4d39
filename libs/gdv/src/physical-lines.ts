/** A line as bytes, without its line break (LF or CRLF). */
export interface PhysicalLine {
  /** 1-based, counting blank lines too. */
  number: number;
  bytes: Buffer;
  /** The line was longer than MAX_LINE_BYTES; its bytes were dropped. */
  overlong: boolean;
}

/** 256 characters of up to 4 bytes each, with room to spare: anything longer is not a GDV record. */
export const MAX_LINE_BYTES = 4096;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream at LF, chunk by chunk, dropping a CR before it; a last line without a line break counts
 * too. Splitting bytes before decoding is safe in all supported encodings: 0x0A never occurs inside a UTF-8
 * sequence. Holds at most one line (MAX_LINE_BYTES) besides the current chunk.
 */
export class LineSplitter {
  private pieces: Buffer[] = [];
  private length = 0;
  private overlong = false;
  private lineNumber = 0;

  /** The lines the chunk completes; its rest waits for the next chunk. */
  push(chunk: Buffer): PhysicalLine[] {
    const lines: PhysicalLine[] = [];
    let start = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, start)) {
      this.append(chunk.subarray(start, lf));
      lines.push(this.take());
      start = lf + 1;
    }
    this.append(chunk.subarray(start));
    return lines;
  }

  /** The last line, when the source did not end with a line break. */
  end(): PhysicalLine | null {
    return this.length > 0 || this.overlong ? this.take() : null;
  }

  private append(bytes: Buffer): void {
    if (this.overlong || bytes.length === 0) return;
    if (this.length + bytes.length > MAX_LINE_BYTES) {
      this.overlong = true;
      this.pieces = [];
      this.length = 0;
      return;
    }
    this.pieces.push(bytes);
    this.length += bytes.length;
  }

  private take(): PhysicalLine {
    // concat copies, so a line never keeps a whole chunk alive
    const joined = Buffer.concat(this.pieces, this.length);
    const bytes = joined.at(-1) === CR ? joined.subarray(0, -1) : joined;
    const line = { number: ++this.lineNumber, bytes, overlong: this.overlong };
    this.pieces = [];
    this.length = 0;
    this.overlong = false;
    return line;
  }
}

/** A chunk of a byte source as a Buffer, without copying; a string chunk is a caller's mistake. */
export function asBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') {
    throw new TypeError('a GDV source must yield bytes: do not set an encoding on the stream');
  }
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
