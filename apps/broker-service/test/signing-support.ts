import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from 'pdf-lib';
import type { Client } from 'pg';
import { sha256Hex } from '../src/notifications/link-tokens.js';

/** A signature link written straight into the database (what sendUnterschrifftenlink stores), and its token. */
export async function insertSignatureLink(
  db: Client,
  customerId: string,
  options: { purpose?: string; expiresInHours?: number } = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO broker.customer_link_token (tenant_id, customer_id, purpose, token_sha256, expires_at)
     SELECT tenant_id, id, $2, $3, now() + make_interval(hours => $4) FROM broker.customer WHERE id = $1`,
    [customerId, options.purpose ?? 'maklervollmacht', sha256Hex(token), options.expiresInHours ?? 24],
  );
  return token;
}

/** Lets a link's time run out, as if its days had passed. */
export async function expireSignatureLink(db: Client, token: string): Promise<void> {
  await db.query(
    `UPDATE broker.customer_link_token SET expires_at = now() - interval '1 second' WHERE token_sha256 = $1`,
    [sha256Hex(token)],
  );
}

/** A new natural-person customer of a broker of the fixture's tenant. */
export async function insertCustomer(
  db: Client,
  firstName: string,
  lastName: string,
  brokerNumber = 'V1000',
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO broker.customer (tenant_id, broker_id, person_type, first_name, last_name)
     SELECT tenant_id, id, 'natuerlich', $2, $3 FROM broker.broker WHERE broker_number = $1 RETURNING id::text`,
    [brokerNumber, firstName, lastName],
  );
  return rows[0].id;
}

/** A real PNG (8-bit grey with alpha) of a diagonal stroke, `width` by `height` pixels. */
/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([length, Buffer.from(type), data, checksum]);
}

/** The IHDR data of a grey-with-alpha 8-bit image. */
export function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 4, 0, 0, 0], 8);
  return header;
}

export function strokePng(width = 300, height = 100): Buffer {
  const header = pngHeader(width, height);
  const rows = Array.from({ length: height }, (_, y) => {
    const row = Buffer.alloc(1 + width * 2);
    const x = Math.round((y / height) * width);
    for (let dx = 0; dx < 4 && x + dx < width; dx++) row[1 + (x + dx) * 2 + 1] = 255;
    return row;
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const pngDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** The decoded content streams of every page. */
async function contentStreams(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().flatMap((page) => {
    const value = page.node.Contents();
    const streams =
      value instanceof PDFArray ? value.asArray().map((ref) => pdf.context.lookup(ref)) : [value];
    return streams
      .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
      .map((stream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'));
  });
}

/**
 * The text lines of a PDF written with pdf-lib's standard fonts: each `<hex> Tj` of the content streams, decoded
 * from WinAnsi (windows-1252).
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const contents = await contentStreams(bytes);
  const winAnsi = new TextDecoder('windows-1252');
  return contents
    .flatMap((content) => [...content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)])
    .map((match) => winAnsi.decode(Buffer.from(match[1], 'hex')))
    .join('\n');
}

/** How many XObjects (images) the pages draw: the `Do` operators of the content streams. */
export async function pdfDrawnImages(bytes: Uint8Array): Promise<number> {
  const contents = await contentStreams(bytes);
  return contents.join('\n').match(/\/\S+ Do\b/g)?.length ?? 0;
}
