import { flatten } from './batches.js';
import {
  decodeBytes,
  detectEncoding,
  DETECTION_PREFIX_BYTES,
  type EncodingDetection,
  type GdvEncoding,
} from './encoding.js';
import { type GdvEvent, rejection, warning } from './events.js';
import { field, KEY, RECORD_LENGTH } from './layout.js';
import { PackageAssembler } from './package-assembler.js';
import { asBuffer, LineSplitter, MAX_LINE_BYTES, type PhysicalLine } from './physical-lines.js';
import { toTeildatensatz } from './records.js';

/** Bytes of a GDV file: a `Readable` (without an encoding set) or any async iterable of byte chunks. */
export type GdvSource = AsyncIterable<Uint8Array>;

export interface GdvReadOptions {
  /** Skips the detection and decodes the whole file with this encoding. */
  encoding?: GdvEncoding;
}

/** Satzarten whose layouts have had a part number at byte 256 since at least 2004; lines without are rejected. */
const PART_NUMBER_REQUIRED = new Set(['0001', '0100', '0200']);

/**
 * Reads a GDV file as a stream of events: the encoding used, then per package `package-start`, its records
 * and `package-end` with the Nachsatz checks, with `warning` and `rejected` events where they arise. Memory
 * stays bounded: the encoding detection buffers at most DETECTION_PREFIX_BYTES, and after that the reader
 * holds one chunk's events, one line and one record at a time.
 */
export function readGdv(source: GdvSource, options: GdvReadOptions = {}): AsyncGenerator<GdvEvent> {
  return flatten(readGdvBatches(source, options));
}

/**
 * `readGdv`'s events, those of each chunk of the source in one array: a chunk is decoded synchronously, so a
 * consumer of large files pays for one asynchronous step per chunk instead of one per event.
 */
export async function* readGdvBatches(
  source: GdvSource,
  options: GdvReadOptions = {},
): AsyncGenerator<GdvEvent[]> {
  const chunks = source[Symbol.asyncIterator]();
  try {
    const head = await readHead(chunks);
    const choice = chooseEncoding(head, options.encoding);
    const decoder = new ChunkDecoder(choice.encoding);
    yield [...encodingEvents(choice), ...head.chunks.flatMap((chunk) => decoder.push(chunk))];
    if (!head.complete) {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        const events = decoder.push(next.value);
        if (events.length > 0) yield events;
      }
    }
    yield decoder.end();
  } finally {
    await chunks.return?.();
  }
}

/** Lines to records and packages, one chunk of bytes at a time. */
class ChunkDecoder {
  private readonly lines = new LineSplitter();
  private readonly assembler = new PackageAssembler();

  constructor(private readonly encoding: GdvEncoding) {}

  push(chunk: Uint8Array): GdvEvent[] {
    const events: GdvEvent[] = [];
    for (const line of this.lines.push(asBuffer(chunk))) {
      for (const event of processLine(line, this.encoding, this.assembler)) events.push(event);
    }
    return events;
  }

  end(): GdvEvent[] {
    const last = this.lines.end();
    return [...(last ? processLine(last, this.encoding, this.assembler) : []), ...this.assembler.finish()];
  }
}

interface Head {
  chunks: Uint8Array[];
  bytes: number;
  /** The source ended within the head. */
  complete: boolean;
}

async function readHead(chunks: AsyncIterator<Uint8Array>): Promise<Head> {
  const head: Head = { chunks: [], bytes: 0, complete: false };
  while (head.bytes < DETECTION_PREFIX_BYTES) {
    const next = await chunks.next();
    if (next.done) return { ...head, complete: true };
    head.chunks.push(next.value);
    head.bytes += next.value.byteLength;
  }
  return head;
}

type EncodingChoice = EncodingDetection & { detected: boolean };

function chooseEncoding(head: Head, option: GdvEncoding | undefined): EncodingChoice {
  if (option) return { encoding: option, reason: 'set by the encoding option', detected: false };
  const prefix = Buffer.concat(head.chunks).subarray(0, DETECTION_PREFIX_BYTES);
  const wholeFile = head.complete && head.bytes <= DETECTION_PREFIX_BYTES;
  return { ...detectEncoding(prefix, wholeFile), detected: true };
}

function* encodingEvents({ encoding, reason, detected, conflict }: EncodingChoice): Generator<GdvEvent> {
  yield { kind: 'encoding', encoding, detected, reason };
  if (!conflict) return;
  yield warning(
    'mixed-encoding',
    [conflict.firstLine],
    `the file mixes encodings: ${conflict.minorityBytes} umlaut bytes of ${conflict.minorityEncoding} ` +
      `(the first in this line) are read as ${encoding}`,
  );
}

function* processLine(
  line: PhysicalLine,
  encoding: GdvEncoding,
  assembler: PackageAssembler,
): Generator<GdvEvent> {
  if (line.overlong) {
    yield rejection('line-too-long', [line.number], `line has more than ${MAX_LINE_BYTES} bytes`);
    return;
  }
  const decoded = decodeBytes(line.bytes, encoding);
  if (decoded.trim() === '') return;
  if (decoded.trimEnd().length > RECORD_LENGTH) {
    const message = `line has ${decoded.trimEnd().length} characters; a GDV record has ${RECORD_LENGTH}`;
    yield rejection('line-too-long', [line.number], message);
    return;
  }
  // Producers that strip trailing blanks leave short lines (facts §2.1).
  const text = decoded.slice(0, RECORD_LENGTH).padEnd(RECORD_LENGTH, ' ');
  yield* acceptRecordLine(text, line.number, encoding, assembler);
}

function* acceptRecordLine(
  text: string,
  lineNumber: number,
  encoding: GdvEncoding,
  assembler: PackageAssembler,
): Generator<GdvEvent> {
  const satzart = field(text, KEY.satzart);
  if (!/^\d{4}$/.test(satzart)) {
    yield rejection('invalid-satzart', [lineNumber], `line starts with "${satzart}", not a 4-digit Satzart`);
    return;
  }
  const part = toTeildatensatz(text, lineNumber);
  if (part.number === null && PART_NUMBER_REQUIRED.has(satzart)) {
    yield rejection(
      'missing-part-number',
      [lineNumber],
      `Satzart ${satzart} line without a part number at byte 256`,
    );
    return;
  }
  if (text.includes('\uFFFD')) {
    yield warning('invalid-characters', [lineNumber], `bytes invalid in ${encoding} were replaced by U+FFFD`);
  }
  yield* assembler.acceptPart(part);
}
