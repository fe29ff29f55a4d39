import { type IncomingHttpHeaders, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { InProcessCallers, SvcPrincipal } from '@broker/auth';
import type { PartCall } from './part-plan.js';

/** What a single call answered. */
export interface PartAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The batch's connection, whose peer every part's connection reports as its own. */
export type Peer = Pick<Socket, 'remoteAddress' | 'remotePort' | 'remoteFamily'>;

/** Methods whose requests carry a Content-Length even without a body, as HTTP clients send them. */
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The connection one call arrives on, in memory: the server writes the call's HTTP response into it, which is
 * kept until the response has finished. No socket, no port, and nothing the network could reach. Its readable
 * side stays open with nothing to read, as an open connection's does: body parsers skip a request whose
 * connection is no longer readable, taking it for one already read.
 */
class InMemoryConnection extends Duplex {
  readonly remoteAddress: string | undefined;
  readonly remotePort: number | undefined;
  readonly remoteFamily: string | undefined;
  private readonly written: Buffer[] = [];

  constructor(peer: Peer) {
    super();
    this.remoteAddress = peer.remoteAddress;
    this.remotePort = peer.remotePort;
    this.remoteFamily = peer.remoteFamily;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.written.push(chunk);
    done();
  }

  // A socket's timeout and TCP options, which request.setTimeout() and the like reach; nothing to do in memory.
  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  response(): Buffer {
    return Buffer.concat(this.written);
  }
}

/**
 * Hands the parts of a multi-call to this process's own HTTP server as requests, each on an in-memory
 * connection of its own: the server's whole stack (routing, guards, pipes, filters, logging) serves it as a call
 * from outside, without writing and parsing the request as HTTP text. The connections are bound to the batch's
 * caller, which HeaderGroupGuard accepts in place of a header group (the outer request spent its nonce).
 */
export class InProcessClient {
  /** The connections of the calls not yet answered. */
  private readonly open = new Set<InMemoryConnection>();

  constructor(
    private readonly server: Server,
    private readonly callers: InProcessCallers,
    private readonly caller: SvcPrincipal,
    private readonly peer: Peer,
  ) {}

  /** The call's answer; rejected when the server drops the call or its answer is incomplete. */
  send(call: PartCall): Promise<PartAnswer> {
    const connection = new InMemoryConnection(this.peer);
    this.callers.bind(connection, this.caller);
    const request = incomingRequest(connection, call);
    const response = new ServerResponse(request);
    this.open.add(connection);
    const dropped = (why: string) => new Error(`${call.method} ${call.path} ${why}`);
    return new Promise((resolve, reject) => {
      response.on('finish', () => {
        request.resume(); // what the server does with a body nobody read
        // Closes the response, as the end of a connection does; not within the connection's own write callback,
        // where destroying it makes an error (with its stack) for nothing.
        process.nextTick(() => connection.destroy());
        try {
          resolve(answerOf(connection.response(), call.method));
        } catch (error) {
          reject(dropped((error as Error).message));
        }
      });
      // Node's server passes a connection's 'drain' on to the response waiting for it (a pipe into it, say).
      connection.on('drain', () => {
        if (response.writableNeedDrain) response.emit('drain');
      });
      connection.on('error', reject);
      connection.on('close', () => {
        this.open.delete(connection);
        if (response.writableFinished) return;
        request.destroy(); // as the server does with the request of a connection that is gone
        reject(dropped('ended without an answer'));
      });
      response.assignSocket(connection as unknown as Socket);
      this.server.emit('request', request, response);
    });
  }

  /** Ends the calls still running as a lost connection would: their request and response emit 'close'. */
  abandon(): void {
    for (const connection of this.open) connection.destroy();
  }
}

/** The call as the server's HTTP parser would have made it of the request a client sends. */
function incomingRequest(connection: InMemoryConnection, call: PartCall): IncomingMessage {
  const request = new IncomingMessage(connection as unknown as Socket);
  request.httpVersionMajor = 1;
  request.httpVersionMinor = 1;
  request.httpVersion = '1.1';
  request.method = call.method;
  request.url = call.path;
  const headers =
    call.body.length > 0 || METHODS_WITH_BODY.has(call.method)
      ? { ...call.headers, 'content-length': String(call.body.length) }
      : call.headers;
  request.headers = headers;
  request.rawHeaders = Object.entries(headers).flat();
  if (call.body.length > 0) request.push(call.body);
  request.push(null);
  request.complete = true;
  return request;
}

const HEADER_END = '\r\n\r\n';
const NO_BODY = Buffer.alloc(0);

/**
 * The status, headers and body of an HTTP response as the server wrote it, read as an HTTP client does: interim
 * answers (100 Continue, 103 Early Hints) skipped, the body framed by its Content-Length or chunked coding.
 */
function answerOf(written: Buffer, method: string): PartAnswer {
  for (let start = 0; ;) {
    const headerEnd = written.indexOf(HEADER_END, start);
    if (headerEnd < 0) throw new Error('answered without a complete header');
    const [statusLine, ...lines] = written.toString('latin1', start, headerEnd).split('\r\n');
    start = headerEnd + HEADER_END.length;
    const status = Number(statusLine.split(' ')[1]);
    if (status >= 200) {
      const headers = headersOf(lines);
      const bodiless = method === 'HEAD' || status === 204 || status === 304;
      return { status, headers, body: bodiless ? NO_BODY : bodyOf(written.subarray(start), headers) };
    }
  }
}

/** Header lines as a client reads them: a repeated header's values joined with ", ", but set-cookie a list. */
function headersOf(lines: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = headers[name];
    if (name === 'set-cookie') headers['set-cookie'] = [...(headers['set-cookie'] ?? []), value];
    else headers[name] = before === undefined ? value : `${String(before)}, ${value}`;
  }
  return headers;
}

function bodyOf(body: Buffer, headers: IncomingHttpHeaders): Buffer {
  if (headers['transfer-encoding'] === 'chunked') return unchunked(body);
  if (headers['content-length'] === undefined) return body;
  const length = Number(headers['content-length']);
  if (body.length < length)
    throw new Error(`answered ${body.length} of the ${length} bytes of its Content-Length`);
  return body.subarray(0, length);
}

/** The content of a body in chunked transfer coding (size in hex, CRLF, data, CRLF, ..., a last chunk of 0). */
function unchunked(body: Buffer): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 0; ;) {
    const sizeEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.toString('latin1', at, sizeEnd), 16);
    if (size === 0) return Buffer.concat(chunks);
    if (!(size > 0) || body.length < sizeEnd + 2 + size)
      throw new Error('answered an incomplete chunked body');
    chunks.push(body.subarray(sizeEnd + 2, sizeEnd + 2 + size));
    at = sizeEnd + 2 + size + 2;
  }
}
