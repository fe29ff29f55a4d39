import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import { type Duplex, duplexPair } from 'node:stream';
import type { InProcessCallers, SvcPrincipal } from '@broker/auth';
import type { PartCall } from './part-plan.js';

/** What a single call answered. */
export interface PartAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Opens in-memory connections to this process's own HTTP server and keeps them for the next call: no socket,
 * no port, but the server's whole stack (routing, guards, pipes, filters, logging) as for a call from outside.
 */
class InMemoryAgent extends http.Agent {
  private readonly serverSides: Duplex[] = [];

  constructor(
    private readonly accept: (serverSide: Duplex) => void,
    maxConnections: number,
  ) {
    super({ keepAlive: true, maxSockets: maxConnections });
  }

  override createConnection(): Duplex {
    const [clientSide, serverSide] = duplexPair();
    this.serverSides.push(serverSide);
    this.accept(serverSide);
    // The agent refs and unrefs its sockets (a TCP notion); an in-memory stream holds no event loop handle.
    return Object.assign(clientSide, { ref: () => clientSide, unref: () => clientSide });
  }

  // The default tunes TCP keep-alive probes and timeouts, which an in-memory stream has not.
  override keepSocketAlive(): boolean {
    return true;
  }

  /** Ends both sides: the server keeps its side of a connection until that side closes. */
  override destroy(): void {
    super.destroy();
    for (const serverSide of this.serverSides) serverSide.destroy();
  }
}

/**
 * The HTTP client a multi-call sends its parts with, over up to `maxConnections` in-memory connections, each
 * reused for the next part. They are bound to the batch's caller, which HeaderGroupGuard accepts in place of a
 * header group (the outer request spent its nonce).
 */
export class InProcessClient {
  private readonly agent: InMemoryAgent;

  constructor(
    server: Server,
    callers: InProcessCallers,
    caller: SvcPrincipal,
    options: { maxConnections: number; remoteAddress?: string },
  ) {
    this.agent = new InMemoryAgent((serverSide) => {
      callers.bind(serverSide, caller);
      Object.defineProperty(serverSide, 'remoteAddress', { value: options.remoteAddress });
      server.emit('connection', serverSide);
    }, options.maxConnections);
  }

  send(call: PartCall): Promise<PartAnswer> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        { agent: this.agent, method: call.method, path: call.path, headers: call.headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 500,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(call.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
