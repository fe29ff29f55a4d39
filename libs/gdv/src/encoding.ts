export const GDV_ENCODINGS = ['utf-8', 'cp1252', 'latin1', 'cp850'] as const;
export type GdvEncoding = (typeof GDV_ENCODINGS)[number];

/** How many bytes at the start of a file the encoding detection looks at. */
export const DETECTION_PREFIX_BYTES = 64 * 1024;

/** Code page 850, bytes 0x80–0xFF (bytes below 0x80 are ASCII). */
const CP850_HIGH_HALF =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀' +
  'ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00AD±‗¾¶§÷¸°¨·¹³²■\u00A0';

/**
 * CP1252 bytes 0x80–0x9F; the five bytes CP1252 leaves undefined map to the C1 controls, as in WHATWG. (Node
 * 20's TextDecoder('windows-1252') decodes this range as ISO-8859-1, hence an own table.)
 */
const CP1252_C1_RANGE =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

const LATIN1_HIGH_HALF = String.fromCharCode(...Array.from({ length: 128 }, (_, offset) => 0x80 + offset));

type SingleByteEncoding = Exclude<GdvEncoding, 'utf-8'>;

/** The characters of bytes 0x80–0xFF. CP1252 equals ISO-8859-1 from 0xA0 on. */
const HIGH_HALVES: Record<SingleByteEncoding, string> = {
  latin1: LATIN1_HIGH_HALF,
  cp1252: CP1252_C1_RANGE + LATIN1_HIGH_HALF.slice(0x20),
  cp850: CP850_HIGH_HALF,
};

/** The bytes whose characters differ from ISO-8859-1. */
const DIFFERS_FROM_LATIN1: Record<SingleByteEncoding, RegExp | null> = {
  latin1: null,
  cp1252: /[\x80-\x9f]/g,
  cp850: /[\x80-\xff]/g,
};

const utf8Decoder = new TextDecoder('utf-8');

/** Decodes one line. Invalid UTF-8 becomes U+FFFD; the single-byte encodings have no invalid bytes. */
export function decodeBytes(bytes: Uint8Array, encoding: GdvEncoding): string {
  if (encoding === 'utf-8') return utf8Decoder.decode(bytes);
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const differing = DIFFERS_FROM_LATIN1[encoding];
  if (!differing) return latin1;
  const highHalf = HIGH_HALVES[encoding];
  return latin1.replace(differing, (character) => highHalf.charAt(character.charCodeAt(0) - 0x80));
}

function byteTable(highHalf: string): ReadonlyMap<number, number> {
  return new Map(Array.from(highHalf, (character, offset) => [character.charCodeAt(0), 0x80 + offset]));
}

const HIGH_HALF_BYTES: Record<SingleByteEncoding, ReadonlyMap<number, number>> = {
  latin1: byteTable(HIGH_HALVES.latin1),
  cp1252: byteTable(HIGH_HALVES.cp1252),
  cp850: byteTable(HIGH_HALVES.cp850),
};

const QUESTION_MARK = 0x3f;

/** Text that encodes byte for byte as in ISO-8859-1. */
const SAME_AS_LATIN1: Record<SingleByteEncoding, RegExp> = {
  latin1: /^[\x00-\xff]*$/,
  cp1252: /^[\x00-\x7f\xa0-\xff]*$/,
  cp850: /^[\x00-\x7f]*$/,
};

/** Encodes text for the writer; characters the encoding lacks become `?`. */
export function encodeText(text: string, encoding: GdvEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  if (SAME_AS_LATIN1[encoding].test(text)) return Buffer.from(text, 'latin1');
  const highHalf = HIGH_HALF_BYTES[encoding];
  const bytes = Buffer.alloc(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    bytes[index] = code < 0x80 ? code : (highHalf.get(code) ?? QUESTION_MARK);
  }
  return bytes;
}

export interface EncodingDetection {
  encoding: GdvEncoding;
  reason: string;
  /** Set when the prefix holds umlaut bytes of both CP850 and Latin-1: the file may mix encodings. */
  conflict?: { minorityEncoding: GdvEncoding; minorityBytes: number; firstLine: number };
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
/** ä ö ü Ä Ö Ü ß in CP850 and in ISO-8859-1/CP1252: the two sets share no byte. */
const CP850_UMLAUTS = new Set([0x84, 0x94, 0x81, 0x8e, 0x99, 0x9a, 0xe1]);
const LATIN1_UMLAUTS = new Set([0xe4, 0xf6, 0xfc, 0xc4, 0xd6, 0xdc, 0xdf]);

/**
 * Detects the encoding from the first bytes of a file (at most DETECTION_PREFIX_BYTES): a UTF-8 byte order
 * mark, or valid UTF-8 with at least one multi-byte sequence, means UTF-8. Otherwise the umlaut bytes decide:
 * more CP850 umlauts than Latin-1 umlauts means CP850, anything else (including a pure ASCII prefix) CP1252.
 * `complete` says whether the prefix is the whole file; if not, a sequence cut off at its end is not an error.
 */
export function detectEncoding(prefix: Uint8Array, complete: boolean): EncodingDetection {
  if (UTF8_BOM.every((byte, index) => prefix[index] === byte)) {
    return { encoding: 'utf-8', reason: 'UTF-8 byte order mark' };
  }
  const multiByteSequences = countUtf8MultiByteSequences(prefix, complete);
  if (multiByteSequences !== null && multiByteSequences > 0) {
    return { encoding: 'utf-8', reason: `valid UTF-8 with ${multiByteSequences} multi-byte sequences` };
  }
  return detectSingleByteEncoding(prefix);
}

function detectSingleByteEncoding(prefix: Uint8Array): EncodingDetection {
  const cp850 = umlautEvidence(prefix, CP850_UMLAUTS);
  const latin1 = umlautEvidence(prefix, LATIN1_UMLAUTS);
  const counts = `${latin1.count} ISO-8859-1 and ${cp850.count} CP850 umlaut bytes`;
  const isCp850 = cp850.count > latin1.count;
  const detection: EncodingDetection = {
    encoding: isCp850 ? 'cp850' : 'cp1252',
    reason: `not UTF-8; ${counts} in the first ${prefix.length} bytes`,
  };
  const minority = isCp850
    ? { ...latin1, encoding: 'cp1252' as const }
    : { ...cp850, encoding: 'cp850' as const };
  if (cp850.count > 0 && latin1.count > 0) {
    detection.conflict = {
      minorityEncoding: minority.encoding,
      minorityBytes: minority.count,
      firstLine: minority.firstLine,
    };
  }
  return detection;
}

function umlautEvidence(
  prefix: Uint8Array,
  umlauts: ReadonlySet<number>,
): { count: number; firstLine: number } {
  let count = 0;
  let line = 1;
  let firstLine = 0;
  for (const byte of prefix) {
    if (byte === 0x0a) line++;
    else if (umlauts.has(byte)) {
      count++;
      if (firstLine === 0) firstLine = line;
    }
  }
  return { count, firstLine };
}

/** The number of multi-byte sequences if the bytes are valid UTF-8, else null. */
function countUtf8MultiByteSequences(bytes: Uint8Array, complete: boolean): number | null {
  let sequences = 0;
  let index = 0;
  while (index < bytes.length) {
    const length = utf8SequenceLength(bytes[index]);
    if (length === 0) return null;
    if (index + length > bytes.length) return complete ? null : sequences;
    for (let next = index + 1; next < index + length; next++) {
      if ((bytes[next] & 0xc0) !== 0x80) return null;
    }
    if (length > 1) sequences++;
    index += length;
  }
  return sequences;
}

/** Length of the UTF-8 sequence a lead byte starts; 0 for a byte that cannot start one. */
function utf8SequenceLength(leadByte: number): number {
  if (leadByte < 0x80) return 1;
  if (leadByte >= 0xc2 && leadByte <= 0xdf) return 2;
  if (leadByte >= 0xe0 && leadByte <= 0xef) return 3;
  if (leadByte >= 0xf0 && leadByte <= 0xf4) return 4;
  return 0;
}
