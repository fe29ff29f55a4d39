import type { IncomingHttpHeaders } from 'node:http';

/**
 * What the guards read of a request: headers, route parameters and the connection it came on, as Express and
 * Fastify both carry them.
 */
export interface HttpRequestLike {
  headers: IncomingHttpHeaders;
  params?: Readonly<Record<string, unknown>>;
  socket?: object;
}
