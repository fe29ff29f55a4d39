import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-ID';

/** Incoming ids are kept when they look like ids; anything else (too long, odd characters) is replaced. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's X-Request-ID when it is acceptable, else a new one. */
export function requestIdFrom(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Propagates the caller's X-Request-ID or generates one, and returns it on the response. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const id = requestIdFrom(request);
  response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
