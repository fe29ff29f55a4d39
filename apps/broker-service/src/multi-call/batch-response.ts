import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { PartAnswer } from './in-process-client.js';

/** A part's answer and the Content-ID of the request part it answers (none when that part had none). */
export interface AnsweredPart {
  requestId: string | undefined;
  answer: PartAnswer;
}

/** Headers of a single call's answer that its response part carries along: [name as read, name as written]. */
const CARRIED_HEADERS = [
  ['content-type', 'Content-Type'],
  ['content-disposition', 'Content-Disposition'],
  ['last-modified', 'Last-Modified'],
  ['cache-control', 'Cache-Control'],
  ['etag', 'ETag'],
  ['location', 'Location'],
  ['x-svc-total', 'X-Svc-Total'],
  ['retry-after', 'Retry-After'],
] as const;

const CRLF = Buffer.from('\r\n');

/** The multipart/related answer of a multi-call: one part per request part, in the same order. */
export function batchResponse(parts: readonly AnsweredPart[]): { contentType: string; body: Buffer } {
  const boundary = `svc-${randomBytes(16).toString('hex')}`;
  const chunks: Buffer[] = [];
  parts.forEach(({ requestId, answer }, index) => {
    const headers = [
      `Content-ID: <response-${index + 1}>`,
      ...(requestId ? [`X-Svc-Request-ID: ${requestId}`] : []),
      `X-Svc-Status: ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trimEnd(),
      ...carriedHeaders(answer),
    ];
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`), answer.body, CRLF);
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    contentType: `multipart/related; boundary="${boundary}"; type="application/json"; start="<response-1>"`,
    body: Buffer.concat(chunks),
  };
}

function carriedHeaders(answer: PartAnswer): string[] {
  return CARRIED_HEADERS.flatMap(([name, written]) => {
    const value = answer.headers[name];
    return value === undefined ? [] : [`${written}: ${String(value)}`];
  });
}
