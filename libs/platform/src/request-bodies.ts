import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  type ClientFault,
  type ClientFaultRenderer,
  DomainError,
  ErrorCode,
  httpStatusOf,
  markAnsweredEarly,
} from '@broker/errors';

/** How long a request body may stop arriving before the request is refused (408), unless the app says otherwise. */
export const DEFAULT_BODY_IDLE_MS = 30_000;

export type LargestBody = (request: IncomingMessage) => number | undefined;

export interface RequestBodyLimits {
  /** The largest body a request may send, by its method and URL (undefined: no limit of this guard's). */
  largestBody?: LargestBody;
  bodyIdleMs: number;
  renderClientFault: ClientFaultRenderer;
}

/**
 * Express: what Node's HTTP server leaves to the app, before any middleware reads a body.
 * - A Content-Length above the request's limit is refused with 413 before a byte is read, and one sent with
 *   `Expect: 100-continue` gets that 413 instead of `100 Continue`.
 * - A body without a Content-Length (chunked) is counted as it arrives and refused with 413 the moment it passes
 *   the limit: the parsers of the body (body-parser, multer) would read it to its end before they answer.
 * - A body that stops arriving for `bodyIdleMs` while nothing of it waits unread is refused with 408.
 * - The rest of a body answered before it was read is dropped for at most `bodyIdleMs`.
 * Every such answer closes the connection; what still arrives of the body is dropped, never parsed.
 */
export function guardRequestBodies(app: NestExpressApplication, limits: RequestBodyLimits): void {
  const { largestBody } = limits;
  if (largestBody) {
    const server = app.getHttpServer();
    // With a listener, Node no longer answers Expect: 100-continue by itself; the request is handled as any other.
    server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      if (!declaresMore(request, largestBody(request))) response.writeContinue();
      server.emit('request', request, response);
    });
  }
  app.use((request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
    // A request that follows a refused body on its connection (while the connection lingers) is not served.
    if (lingering.has(request.socket)) return void request.socket.destroy();
    const limit = largestBody?.(request);
    if (declaresMore(request, limit)) {
      response.setHeader('Connection', 'close');
      if (response.socket) lingerBeforeClosing(response.socket);
      return next(tooLarge(limit));
    }
    // A request made in the process (a multi-call's part) arrives complete.
    if (hasBody(request) && !request.complete) watchBody(request, response, limit, limits);
    next();
  });
}

/** Whether the request's Content-Length exceeds `limit`. */
function declaresMore(request: IncomingMessage, limit: number | undefined): boolean {
  const declared = Number(request.headers['content-length']);
  return limit !== undefined && Number.isFinite(declared) && declared > limit;
}

function hasBody(request: IncomingMessage): boolean {
  const declared = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
}

/**
 * Counts the body as Node's HTTP parser hands it to the request (its `push`), before any reader sees it; the
 * Content-Length of a declared body is enforced by the parser itself.
 */
function watchBody(
  request: IncomingMessage,
  response: ServerResponse,
  limit: number | undefined,
  limits: RequestBodyLimits,
): void {
  const counted = request.headers['content-length'] === undefined ? limit : undefined;
  let received = 0;
  let refused = false;
  const refuse = (error: DomainError) => {
    refused = true;
    clearTimeout(idle);
    answerAtOnce(request, response, error, limits.renderClientFault);
  };
  const idle = setTimeout(function stalled() {
    if (request.complete) return;
    // Data waiting unread means the reader is slow, not the client.
    if (request.readableLength > 0) return void idle.refresh();
    refuse(stalledBody(limits.bodyIdleMs));
  }, limits.bodyIdleMs).unref();
  response.once('close', () => {
    clearTimeout(idle);
    if (!refused && !request.complete) limitDrain(request, limits.bodyIdleMs);
  });
  const push = request.push.bind(request);
  request.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    // After the answer the rest is dropped (its end too: it is not the body's) until the connection closes.
    if (refused) return true;
    if (chunk === null) clearTimeout(idle);
    else {
      idle.refresh();
      received += (chunk as Buffer).length;
      if (counted !== undefined && received > counted) {
        refuse(tooLarge(counted));
        return true;
      }
    }
    return push(chunk, encoding);
  };
}

/**
 * A request answered before its body was read (a repeated upload, a bad token): Node drops the rest as it arrives
 * and keeps the connection (closed at once, it would be reset under a client still sending, whom the reset may
 * reach before the answer). The drop gets `ms`, as a stalled body does; then the connection is closed.
 */
function limitDrain(request: IncomingMessage, ms: number): void {
  setTimeout(() => {
    if (!request.complete) request.socket.destroy();
  }, ms).unref();
}

/**
 * Writes the refusal now, in the area's error shape, with `Connection: close`. Once the connection is closed the
 * request is destroyed, so its reader (multer, body-parser) fails and cleans up; the exception filter leaves that
 * failure alone. A response that cannot be written now (sent already, or queued behind a pipelined one) ends the
 * connection at once.
 */
function answerAtOnce(
  request: IncomingMessage,
  response: ServerResponse,
  error: DomainError,
  render: ClientFaultRenderer,
): void {
  const { socket } = response;
  if (response.headersSent || !socket) return void request.socket.destroy();
  const status = httpStatusOf(error.code);
  const fault: ClientFault = { status, code: error.code, message: error.message, details: [], headers: {} };
  markAnsweredEarly(response);
  lingerBeforeClosing(socket);
  socket.once('close', () => request.destroy());
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' });
  response.end(JSON.stringify(render(fault)));
}

/**
 * How long the rest of a refused body is still received (and dropped) after the answer. A connection closed with
 * data unread is reset, and a reset may reach the client before it has read the answer (nginx's lingering close).
 */
const LINGER_MS = 2_000;

/** Connections that answered a refusal and only wait for their client to stop sending. */
const lingering = new WeakSet<Socket>();

/**
 * Node closes a `Connection: close` connection as soon as the answer is written (`destroySoon`): here it sends its
 * end, then closes when the client ends its side or after LINGER_MS. Requests parsed meanwhile are not served.
 */
function lingerBeforeClosing(socket: Socket): void {
  lingering.add(socket);
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    if (this.readableEnded) return void this.destroy();
    const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
  };
}

function tooLarge(limit: number | undefined): DomainError {
  return new DomainError(ErrorCode.PayloadTooLarge, `The request body is larger than ${limit} bytes`);
}

function stalledBody(idleMs: number): DomainError {
  return new DomainError(
    ErrorCode.RequestTimeout,
    `The request body stopped arriving for ${idleMs / 1000} s; send it again`,
  );
}
