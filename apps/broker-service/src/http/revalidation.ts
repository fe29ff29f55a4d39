import type { Request, Response } from 'express';
import { ENUMERATIONS, ENUMERATIONS_LAST_MODIFIED } from '@broker/contracts';

/** How long a client may reuse a list without asking again (the spec's multi-call example). */
export const LIST_CACHE_CONTROL = 'private, must-revalidate, max-age=3600';

/**
 * Answers a cacheable GET: Last-Modified and Cache-Control always; 304 without a body when If-Modified-Since
 * is not older than the resource (compared to the second, as HTTP dates go), else 200 with `body` as JSON.
 * An If-Modified-Since that is not an HTTP date, or lies in the future, is ignored, as RFC 9110 asks.
 */
export function sendRevalidated(
  request: Request,
  response: Response,
  lastModified: Date,
  body: unknown,
  /** Headers of the 200 answer only (a 304 has no body they could describe), e.g. X-Svc-Total. */
  bodyHeaders: Record<string, string> = {},
): void {
  sendRevalidatedJson(request, response, lastModified.toUTCString(), JSON.stringify(body), bodyHeaders);
}

/** sendRevalidated with the Last-Modified as an HTTP date and the body as JSON already serialised. */
function sendRevalidatedJson(
  request: Request,
  response: Response,
  lastModified: string,
  json: string | Buffer,
  bodyHeaders: Record<string, string> = {},
): void {
  response.setHeader('Last-Modified', lastModified);
  response.setHeader('Cache-Control', LIST_CACHE_CONTROL);
  if (notModifiedSince(request.headers['if-modified-since'], lastModified)) {
    response.status(304).end();
    return;
  }
  for (const [name, value] of Object.entries(bodyHeaders)) response.setHeader(name, value);
  // Not response.json(): Express would answer 304 by its own, lenient reading of If-Modified-Since.
  response.type('json').end(json);
}

function notModifiedSince(header: string | undefined, lastModified: string): boolean {
  const since = header === undefined ? undefined : httpDate(header);
  return since !== undefined && since <= Date.now() && Date.parse(lastModified) <= since;
}

const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** RFC 9110's three HTTP-date forms: IMF-fixdate, the obsolete RFC 850 form and asctime (read as GMT). */
const HTTP_DATES = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`),
  new RegExp(
    `^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`,
  ),
  new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} \\d{4}$`),
];

/** The instant of an HTTP date in milliseconds, undefined for anything else (`2030`, ISO dates, ...). */
function httpDate(text: string): number | undefined {
  const form = HTTP_DATES.findIndex((pattern) => pattern.test(text));
  if (form < 0) return undefined;
  const instant = Date.parse(form === 2 ? `${text} GMT` : text);
  return Number.isNaN(instant) ? undefined : instant;
}

type EnumerationName = keyof typeof ENUMERATIONS;

/** The enumeration lists as JSON, serialised once: they change only with a release. */
const ENUMERATION_JSON = Object.fromEntries(
  Object.entries(ENUMERATIONS).map(([name, list]) => [name, Buffer.from(JSON.stringify(list))]),
) as Record<EnumerationName, Buffer>;
const ENUMERATIONS_HTTP_DATE = ENUMERATIONS_LAST_MODIFIED.toUTCString();

/** An enumeration list (employee and broker service alike), revalidated against the lists' own date. */
export function sendEnumeration(request: Request, response: Response, name: EnumerationName): void {
  sendRevalidatedJson(request, response, ENUMERATIONS_HTTP_DATE, ENUMERATION_JSON[name]);
}
