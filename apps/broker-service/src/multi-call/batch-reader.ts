import type { IncomingMessage } from 'node:http';
import {
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
} from '@remix-run/multipart-parser';
import { parseMultipartRequest } from '@remix-run/multipart-parser/node';
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
 * Reads every part of a multipart/related request, streaming, within `limits`. Nothing runs before the whole
 * batch is read, so a batch over a limit or malformed anywhere is refused as a whole.
 */
export async function readBatch(request: IncomingMessage, limits: MultiCallLimits): Promise<RequestPart[]> {
  if (!MULTIPART_RELATED.test(request.headers['content-type'] ?? ''))
    throw malformed('A multi-call is sent as Content-Type multipart/related with a boundary');
  if (Number(request.headers['content-length']) > limits.maxRequestBytes) throw requestTooLarge(limits);
  const parts: RequestPart[] = [];
  try {
    const reader = parseMultipartRequest(request, {
      maxParts: limits.maxParts,
      maxFileSize: limits.maxPartBytes,
      maxTotalSize: limits.maxRequestBytes,
      maxHeaderSize: limits.maxPartHeaderBytes,
    });
    for await (const part of reader) parts.push({ headers: part.headers, body: Buffer.from(part.bytes) });
  } catch (error) {
    throw batchError(error, limits);
  }
  if (parts.length === 0) throw malformed('The multi-call holds no parts');
  return parts;
}

function batchError(error: unknown, limits: MultiCallLimits): unknown {
  if (error instanceof MaxPartsExceededError)
    return tooLarge(`A multi-call may hold at most ${limits.maxParts} parts`);
  if (error instanceof MaxFileSizeExceededError)
    return tooLarge(`A part of a multi-call may hold at most ${limits.maxPartBytes} bytes`);
  if (error instanceof MaxTotalSizeExceededError) return requestTooLarge(limits);
  if (error instanceof MaxHeaderSizeExceededError)
    return malformed(`The headers of a part may take at most ${limits.maxPartHeaderBytes} bytes`);
  if (error instanceof MultipartParseError)
    return malformed(`The multi-call is not valid multipart: ${error.message}`);
  return error;
}
