import { parseMultipart } from '@remix-run/multipart-parser/node';
import type request from 'supertest';
import type { SvcPrincipal } from '@broker/auth';

/** One part of a test multi-call; a header given as undefined is left out. */
export interface TestPart {
  headers: Record<string, string | undefined>;
  body?: unknown;
}

/** The usual part: Content-ID, X-Svc-Method, X-Svc-Path and, for a body, Content-Type JSON. */
export function part(
  id: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): TestPart {
  return {
    headers: {
      'Content-ID': id,
      'X-Svc-Method': method,
      'X-Svc-Path': path,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body,
  };
}

export const BOUNDARY = 'test-boundary-4711';

export function multipartBody(parts: readonly TestPart[], boundary = BOUNDARY): string {
  const sections = parts.map(({ headers, body }) => {
    const lines = Object.entries(headers)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${name}: ${value}`);
    const content = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    return `--${boundary}\r\n${lines.join('\r\n')}\r\n\r\n${content}\r\n`;
  });
  return `${sections.join('')}--${boundary}--\r\n`;
}

export const multipartType = (boundary = BOUNDARY, start = '<part-1>') =>
  `multipart/related; boundary=${boundary}; start="${start}"`;

/** A response part as a client reads it. */
export interface AnswerPart {
  headers: Record<string, string | undefined>;
  /** The number of X-Svc-Status. */
  status: number;
  text: string;
  json(): unknown;
}

/** Collects a response body as bytes, whatever its type (supertest parses only text and JSON). */
export function asBuffer(test: request.Test): request.Test {
  return test.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

export function answerParts(contentType: string, body: Buffer): AnswerPart[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`No boundary in ${contentType}`);
  return [...parseMultipart(body, { boundary })].map((parsed) => {
    const text = Buffer.from(parsed.bytes).toString('utf8');
    return {
      headers: { ...parsed.headers },
      status: Number(parsed.headers['x-svc-status']?.split(' ')[0]),
      text,
      json: () => JSON.parse(text) as unknown,
    };
  });
}

/** The caller of the multi-call unit tests' batches: the API client of V1000. */
export const TEST_CALLER: SvcPrincipal = {
  tenantId: '1',
  tenantCode: 'demo',
  brokerId: '7',
  brokerNumber: 'V1000',
  apiClientId: '3',
  apiId: 'main-api',
};
