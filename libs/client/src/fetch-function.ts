/** The fetch a client layer wraps: the global `fetch`, another layer, or a caller's own (a proxy agent, a test). */
export type FetchFunction = (request: Request) => Promise<Response>;

export const globalFetch: FetchFunction = (request) => fetch(request);

/** A request with one header set (Request objects are immutable). */
export function withHeaders(request: Request, headers: Record<string, string>): Request {
  const copy = new Request(request);
  for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
  return copy;
}

/** A Response built by the client (a multi-call part, a cached answer) with the URL of the call it answers. */
export function withUrl(response: Response, url: string): Response {
  return Object.defineProperty(response, 'url', { value: url });
}
