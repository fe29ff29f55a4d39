import { decode as decodeQuotedPrintable } from 'libqp';

/** Encodings that leave the bytes as they are (RFC 2045, section 6.2). */
const IDENTITY = new Set(['7bit', '8bit', 'binary']);
/** Base64 as MIME writes it, without its line breaks: the alphabet in groups of four, padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A part's body as the caller meant it, before its Content-Transfer-Encoding (standard MIME libraries encode
 * parts as base64 or quoted-printable by default); a problem for a body that is not valid in its encoding or an
 * encoding this service does not know.
 */
export function decodedBody(
  encoding: string | undefined,
  body: Buffer,
): { body: Buffer } | { problem: string } {
  const name = (encoding?.trim() || '7bit').toLowerCase();
  if (IDENTITY.has(name)) return { body };
  if (name === 'base64') {
    const text = body.toString('latin1').replace(/\s+/g, '');
    if (!BASE64.test(text))
      return { problem: 'The body of the part is not valid base64 (its Content-Transfer-Encoding)' };
    return { body: Buffer.from(text, 'base64') };
  }
  if (name === 'quoted-printable') return { body: decodeQuotedPrintable(body.toString('latin1')) };
  return {
    problem: `Content-Transfer-Encoding ${encoding} is not one of 7bit, 8bit, binary, base64 and quoted-printable`,
  };
}
