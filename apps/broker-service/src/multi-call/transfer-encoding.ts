import { decode as decodeQuotedPrintable } from 'libqp';

/** Encodings that leave the bytes as they are (RFC 2045, section 6.2). */
const IDENTITY = new Set(['7bit', '8bit', 'binary']);
/** Base64 as MIME writes it: lines of the alphabet (whitespace between them ignored), padding only at the end. */
const MIME_BASE64 = /^[A-Za-z0-9+/\s]*(={1,2}\s*)?$/;

/**
 * A part's body as the caller meant it, before its Content-Transfer-Encoding (standard MIME libraries encode
 * parts as base64 or quoted-printable by default); a problem for a body that is not valid in its encoding or an
 * encoding this service does not know.
 */
export function decodedBody(
  encoding: string | undefined,
  body: Buffer,
): { body: Buffer } | { problem: string } {
  const name = (encoding ?? '7bit').trim().toLowerCase();
  if (IDENTITY.has(name)) return { body };
  if (name === 'base64') {
    const text = body.toString('latin1');
    if (!MIME_BASE64.test(text))
      return { problem: 'The body of the part is not valid base64 (its Content-Transfer-Encoding)' };
    return { body: Buffer.from(text, 'base64') };
  }
  if (name === 'quoted-printable') return { body: decodeQuotedPrintable(body.toString('latin1')) };
  return {
    problem: `Content-Transfer-Encoding ${encoding} is not one of 7bit, 8bit, binary, base64 and quoted-printable`,
  };
}
