import type { IncomingMessage } from 'node:http';
import {
  getMultipartBoundary,
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MultipartParseError,
  parseMultipart,
} from '@remix-run/multipart-parser/node';
import { DomainError, ErrorCode } from '@broker/errors';
import type { MultiCallLimits } from './multi-call-limits.js';

/** One part of a multi-call as received: its headers (lower-case names) and its body. */
export interface RequestPart {
  headers: Readonly<Record<string, string | undefined>>;
  body: Buffer;
}

const MULTIPART_RELATED = /^multipart\/related\s*(;|$)/i;

const malformed = (message: string) => new DomainError(ErrorCode.MalformedRequest, message);
const tooLarge = (message: string) => new DomainError(ErrorCode.PayloadTooLarge, message);
const requestTooLarge = (limits: MultiCallLimits) =>
  tooLarge(`A multi-call may take at most ${limits.maxRequestBytes} bytes`);

/**
 * Reads every part of a multipart/related request within `limits`. The body is read as it streams in and
 * refused (413) as soon as it crosses the request limit; then its parts are parsed. Nothing runs before the
 * whole batch is read, so a batch over a limit or malformed anywhere is refused as a whole.
 */
export async function readBatch(request: IncomingMessage, limits: MultiCallLimits): Promise<RequestPart[]> {
  const contentType = request.headers['content-type'] ?? '';
  if (!MULTIPART_RELATED.test(contentType))
    throw malformed('A multi-call is sent as Content-Type multipart/related with a boundary');
  const boundary = getMultipartBoundary(contentType);
  if (!boundary) throw malformed('The Content-Type of a multi-call names no boundary');
  if (Number(request.headers['content-length']) > limits.maxRequestBytes) throw requestTooLarge(limits);
  const body = await readBody(request, limits);
  if (body.includes(`--${boundary}\n`))
    throw malformed(
      'The lines of a multi-call end with CRLF (\\r\\n), as multipart requires; its boundary lines end with LF alone',
    );
  const parts: RequestPart[] = [];
  try {
    const parsed = parseMultipart(withoutPreambleAndEpilogue(body, boundary), {
      boundary,
      maxParts: limits.maxParts,
      maxFileSize: limits.maxPartBytes,
      maxTotalSize: limits.maxRequestBytes, // the library's default would be lower
      maxHeaderSize: limits.maxPartHeaderBytes,
    });
    for (const part of parsed) parts.push({ headers: part.headers, body: Buffer.from(part.bytes) });
  } catch (error) {
    throw batchError(error, limits);
  }
  if (parts.length === 0) throw malformed('The multi-call holds no parts');
  parts.forEach((part, index) => refuseSwallowedBoundary(part, index, boundary));
  return parts;
}

/**
 * A boundary line only separates parts after a CRLF of its own (RFC 2046): a part without a body that puts it
 * directly after the empty line ending its headers makes it the first line of its body, and the parts after it
 * become that body. Refused, rather than running fewer calls than the caller wrote.
 */
function refuseSwallowedBoundary(part: RequestPart, index: number, boundary: string): void {
  const line = `--${boundary}`;
  if (!part.body.subarray(0, line.length).equals(Buffer.from(line)) && !part.body.includes(`\n${line}`))
    return;
  const name = part.headers['content-id'] ?? `number ${index + 1}`;
  throw malformed(
    `The body of part ${name} holds the boundary line ${line}: a part without a body still needs the CRLF ` +
      'of its empty body before the next boundary (headers, an empty line, then CRLF and the boundary), ' +
      'or the parts after it are read as its body',
  );
}

async function readBody(request: IncomingMessage, limits: MultiCallLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxRequestBytes) throw requestTooLarge(limits);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw malformed('The multi-call ended before its body was complete');
  }
  return Buffer.concat(chunks);
}

/** RFC 2046 allows text before the first boundary and after the last one; neither belongs to a part. */
function withoutPreambleAndEpilogue(body: Buffer, boundary: string): Buffer {
  const first = body.indexOf(`--${boundary}`);
  const start = first > 0 && body.subarray(first - 2, first).toString() === '\r\n' ? first : 0;
  const close = `--${boundary}--`;
  const last = body.lastIndexOf(close);
  return last < start
    ? body.subarray(start)
    : Buffer.concat([body.subarray(start, last + close.length), CRLF]);
}

const CRLF = Buffer.from('\r\n');

function batchError(error: unknown, limits: MultiCallLimits): unknown {
  if (error instanceof MaxPartsExceededError)
    return tooLarge(`A multi-call may hold at most ${limits.maxParts} parts`);
  if (error instanceof MaxFileSizeExceededError)
    return tooLarge(`A part of a multi-call may hold at most ${limits.maxPartBytes} bytes`);
  if (error instanceof MaxHeaderSizeExceededError)
    return malformed(`The headers of a part may take at most ${limits.maxPartHeaderBytes} bytes`);
  if (error instanceof MultipartParseError)
    return malformed(`The multi-call is not valid multipart: ${error.message}`);
  if ((error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA')
    return malformed('The headers of a part are not valid UTF-8');
  return error;
}
