import { type FetchFunction, withUrl } from './fetch-function.js';

interface CachedAnswer {
  lastModified: string;
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

const TRANSFER_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

/** Answers kept at most; the oldest is dropped first. */
const DEFAULT_ENTRIES = 500;

/**
 * An in-memory cache of GET answers that carry `Last-Modified` (the lists of area C). A cached resource is asked
 * for again with `If-Modified-Since` each time; a 304 is answered with the cached 200, so callers never see it.
 * Answers with `Cache-Control: no-store` are not kept.
 */
export class RevalidationCache {
  private readonly answers = new Map<string, CachedAnswer>();

  constructor(private readonly maxEntries = DEFAULT_ENTRIES) {}

  fetch(send: FetchFunction): FetchFunction {
    return async (request) => {
      if (request.method !== 'GET' || request.headers.has('If-Modified-Since')) return send(request);
      const cached = this.answers.get(request.url);
      if (cached) request.headers.set('If-Modified-Since', cached.lastModified);
      const response = await send(request);
      if (cached && response.status === 304) return withUrl(replayed(cached, response), request.url);
      return this.keep(request.url, response);
    };
  }

  private async keep(url: string, response: Response): Promise<Response> {
    const lastModified = response.headers.get('Last-Modified');
    if (
      response.status !== 200 ||
      !lastModified ||
      /no-store/i.test(response.headers.get('Cache-Control') ?? '')
    ) {
      return response;
    }
    const body = await response.arrayBuffer();
    // The body is kept decoded: its transfer headers no longer describe it.
    const headers = [...response.headers].filter(([name]) => !TRANSFER_HEADERS.has(name));
    this.answers.delete(url);
    this.answers.set(url, { lastModified, status: response.status, headers, body });
    if (this.answers.size > this.maxEntries) this.answers.delete(this.answers.keys().next().value as string);
    return withUrl(
      new Response(body, { status: response.status, statusText: response.statusText, headers }),
      url,
    );
  }
}

/** The cached answer, with the fresh validators and caching headers the 304 sent. */
function replayed(cached: CachedAnswer, notModified: Response): Response {
  const headers = new Headers(cached.headers);
  for (const name of ['Date', 'Cache-Control', 'Expires', 'Last-Modified', 'ETag']) {
    const value = notModified.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(cached.body.slice(0), { status: cached.status, headers });
}
