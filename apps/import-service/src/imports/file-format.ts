import type { ImportFileType } from '@broker/contracts';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A GDV file opens with a Vorsatz (Satzart 0001) line of about 256 characters (more bytes in UTF-8). */
function looksLikeGdv(firstLine: Buffer): boolean {
  return firstLine.subarray(0, 4).toString('latin1') === '0001' && firstLine.length >= 200;
}

/** A CSV import file opens with a text header row of at least two columns separated by ; or ,. */
function looksLikeCsv(firstLine: Buffer): boolean {
  if (firstLine.includes(0)) return false;
  const header = firstLine.toString('latin1');
  return /^[^;,]+[;,][^;,]/.test(header) && !/[\u0000-\u0008\u000e-\u001f]/.test(header);
}

/** The kind of an upload, from its first bytes; undefined when it is neither. */
export function detectFileType(head: Buffer): ImportFileType | undefined {
  const content = head.subarray(0, 3).equals(UTF8_BOM) ? head.subarray(3) : head;
  const lineEnd = content.indexOf(0x0a);
  const firstLine = (lineEnd === -1 ? content : content.subarray(0, lineEnd))
    .toString('latin1')
    .replace(/\r$/, '');
  const line = Buffer.from(firstLine, 'latin1');
  if (looksLikeGdv(line)) return 'GDV';
  if (looksLikeCsv(line)) return 'CSV';
  return undefined;
}
