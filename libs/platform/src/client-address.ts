import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/**
 * The client's address: the socket's, or the one a trusted proxy (the gateway) put into X-Forwarded-For, read
 * from the right and stopping at the first address that is not a trusted proxy (so a client cannot forge it).
 */
export class ClientAddresses {
  private readonly trust: (address: string, hop: number) => boolean;

  constructor(trustedProxies: string[]) {
    this.trust = proxyaddr.compile(trustedProxies);
  }

  /** `request`: Node's request (Express's, or Fastify's `request.raw`). */
  of(request: IncomingMessage): string {
    return proxyaddr(request, this.trust);
  }
}
