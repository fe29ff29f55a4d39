import type { Request, Response } from 'express';
import { ENUMERATIONS, ENUMERATIONS_LAST_MODIFIED } from '@broker/contracts';

/** How long a client may reuse a list without asking again (the spec's multi-call example). */
export const LIST_CACHE_CONTROL = 'private, must-revalidate, max-age=3600';

/**
 * Answers a cacheable GET: Last-Modified and Cache-Control always; 304 without a body when If-Modified-Since
 * is not older than the resource (compared to the second, as HTTP dates go), else 200 with `body()`.
 * An If-Modified-Since that is not an HTTP date is ignored, as RFC 9110 asks.
 */
export async function sendRevalidated<T>(
  request: Request,
  response: Response,
  lastModified: Date,
  body: () => T | Promise<T>,
): Promise<void> {
  response.setHeader('Last-Modified', lastModified.toUTCString());
  response.setHeader('Cache-Control', LIST_CACHE_CONTROL);
  if (notModifiedSince(request.headers['if-modified-since'], lastModified)) {
    response.status(304).end();
    return;
  }
  response.json(await body());
}

function notModifiedSince(header: string | undefined, lastModified: Date): boolean {
  const since = header === undefined ? Number.NaN : Date.parse(header);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/** An enumeration list (employee and broker service alike), revalidated against the lists' own date. */
export function sendEnumeration(
  request: Request,
  response: Response,
  name: keyof typeof ENUMERATIONS,
): Promise<void> {
  return sendRevalidated(request, response, ENUMERATIONS_LAST_MODIFIED, () => ENUMERATIONS[name]);
}
