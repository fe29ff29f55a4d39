import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-ID';

/** Incoming ids are kept when they look like ids; anything else (too long, odd characters) is replaced. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Propagates the caller's X-Request-ID or generates one, and returns it on the response. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
