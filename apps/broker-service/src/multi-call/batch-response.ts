import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { PartAnswer } from './in-process-client.js';

/** A part's answer and the Content-ID of the request part it answers (none when that part had none). */
export interface AnsweredPart {
  requestId: string | undefined;
  answer: PartAnswer;
}

/** Headers of a single call's answer that its response part carries along. */
const CARRIED_HEADERS = ['content-type', 'last-modified', 'cache-control', 'etag', 'location', 'x-svc-total'];

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
    chunks.push(
      Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`),
      answer.body,
      Buffer.from('\r\n'),
    );
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    contentType: `multipart/related; boundary="${boundary}"; type="application/json"; start="<response-1>"`,
    body: Buffer.concat(chunks),
  };
}

function carriedHeaders(answer: PartAnswer): string[] {
  return CARRIED_HEADERS.flatMap((name) => {
    const value = answer.headers[name];
    return value === undefined ? [] : [`${canonicalName(name)}: ${String(value)}`];
  });
}

const canonicalName = (name: string) =>
  name === 'etag'
    ? 'ETag'
    : name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
