import { validateHeaderName, validateHeaderValue } from 'node:http';
import { routedPath } from '../interface-version.js';
import type { RequestPart } from './batch-reader.js';
import { decodedBody } from './transfer-encoding.js';

/** The single call a part stands for. */
export interface PartCall {
  method: string;
  /** Absolute path with query string, under the batch's base. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

/** A part as planned: its call, or why it cannot run (answered with its own 400). */
export type PlannedPart = { contentId: string | undefined } & ({ call: PartCall } | { problem: string });

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** RFC 3986 path and query characters: unreserved, sub-delimiters, `:`, `@`, `/`, `?` and percent-escapes. */
const URI_PATH_AND_QUERY = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]+$/;

/** Where a call is sent to and comes from: a part has the batch's, whatever it states itself. */
export const FROM_THE_BATCH = [
  'host',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
];

/** Part headers that steer the batch, belong to a connection, or come from the batch, rather than the call's. */
const NOT_FORWARDED = new Set([
  ...FROM_THE_BATCH,
  'content-id',
  'x-svc-method',
  'x-svc-path',
  'last-modified',
  'content-length',
  'content-transfer-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
]);

/**
 * Turns each part into the single call it names, relative to `base` (the absolute path of {base_url}).
 * Every part is checked on its own: a part missing a mandatory header, sharing its Content-ID with another
 * part, naming a path outside `base` or the multi-call itself, or holding a header HTTP cannot carry gets a
 * problem; the others still run. The calls go to `sentBase`, the base as the multi-call's caller wrote it (`1.0`
 * or `v1`), so the links they answer with follow it.
 */
export function planParts(parts: readonly RequestPart[], base: string, sentBase = base): PlannedPart[] {
  const idCounts = new Map<string, number>();
  for (const part of parts) {
    const id = part.headers['content-id'];
    if (id) idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
  }
  return parts.map((part): PlannedPart => {
    const contentId = part.headers['content-id'] || undefined;
    const method = part.headers['x-svc-method']?.toUpperCase();
    const sentPath = part.headers['x-svc-path'];
    const path = sentPath && routedPath(sentPath);
    const missing = [
      ...(contentId ? [] : ['Content-ID']),
      ...(method ? [] : ['X-Svc-Method']),
      ...(path ? [] : ['X-Svc-Path']),
    ];
    if (missing.length > 0 || !method || !path)
      return { contentId, problem: `The part lacks the header ${missing.join(', ')}` };
    if (contentId && (idCounts.get(contentId) ?? 0) > 1)
      return {
        contentId,
        problem: `Content-ID ${contentId} is used by more than one part of the multi-call`,
      };
    if (!METHODS.includes(method))
      return { contentId, problem: `X-Svc-Method ${method} is not one of ${METHODS.join(', ')}` };
    const headers = forwardedHeaders(part);
    const problem = pathProblem(path, base) ?? headerProblem(headers);
    if (problem) return { contentId, problem };
    const decoded = decodedBody(part.headers['content-transfer-encoding'], part.body);
    if ('problem' in decoded) return { contentId, problem: decoded.problem };
    return {
      contentId,
      call: {
        method,
        path: `${sentBase}${path.startsWith(`${base}/`) ? path.slice(base.length) : path}`,
        headers,
        body: decoded.body,
      },
    };
  });
}

/** A path relative to the base (`/laender`), or absolute under exactly this base; never above or beside it. */
function pathProblem(path: string, base: string): string | undefined {
  if (path === base || path.startsWith(`${base}?`) || path.startsWith(`${base}/?`))
    return `X-Svc-Path ${path} names the multi-call itself`;
  if (!URI_PATH_AND_QUERY.test(path))
    return `X-Svc-Path ${path} must be a path and query of URI characters (others percent-encoded), without a fragment`;
  const relative = path.startsWith(`${base}/`) ? path.slice(base.length) : path;
  const pathname = relative.split('?')[0];
  const outside = `X-Svc-Path ${path} is not a path under ${base}`;
  if (!pathname.startsWith('/') || pathname.startsWith('//') || pathname.startsWith('/service/'))
    return outside;
  if (pathname === '/') return `X-Svc-Path ${path} names the multi-call itself`;
  const segments = decodedSegments(pathname);
  if (!segments || segments.some((segment) => segment === '.' || segment === '..' || segment.includes('/')))
    return outside;
  return undefined;
}

function decodedSegments(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/** A header name or value HTTP cannot carry (a space in a name, a character beyond Latin-1 in a value, ...). */
function headerProblem(headers: Record<string, string>): string | undefined {
  try {
    for (const [name, value] of Object.entries(headers)) {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    }
    return undefined;
  } catch (error) {
    return `The part cannot be sent as a call: ${(error as Error).message}`;
  }
}

function forwardedHeaders(part: RequestPart): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.headers))
    if (value !== undefined && !NOT_FORWARDED.has(name)) headers[name] = value;
  // The spec revalidates with Last-Modified on the part; the single call's equivalent is If-Modified-Since.
  const lastModified = part.headers['last-modified'];
  if (lastModified && !headers['if-modified-since']) headers['if-modified-since'] = lastModified;
  return headers;
}

/** A part that changes nothing: a GET or HEAD without a body, or a part that cannot run at all. */
function isRead(part: PlannedPart): boolean {
  return !('call' in part) || (['GET', 'HEAD'].includes(part.call.method) && part.call.body.length === 0);
}

/**
 * The order the parts run in, as steps of part indexes: each write is a step of its own, consecutive reads
 * share one step and may run side by side. A step starts when the one before it has finished, so every part
 * sees the effect of every write before it and none after it, exactly as if all ran one by one. (A GET with
 * a body, like sendUnterschrifftenlink's, counts as a write.)
 */
export function stepsOf(parts: readonly PlannedPart[]): number[][] {
  const steps: number[][] = [];
  parts.forEach((part, index) => {
    const last = steps.at(-1);
    if (last && isRead(part) && isRead(parts[last[0]])) last.push(index);
    else steps.push([index]);
  });
  return steps;
}
