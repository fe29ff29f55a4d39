/*
 * What the exception filter and the request log tell each other about a response, beside its status: marks on the
 * Node response (under Fastify's reply, its `raw`); and whether the client of a request is still there.
 */
const answeredEarly = new WeakSet<object>();
const refused = new WeakSet<object>();

/** The Node message of a request or response (under Fastify, its `raw`). */
const nodeMessage = (message: object): object => (message as { raw?: object }).raw ?? message;

/**
 * Marks a response answered before its handler finished: a request body refused while it arrived (413, 408).
 * The handler, reading that body, fails afterwards; the exception filter then knows the failure was answered.
 */
export function markAnsweredEarly(response: object): void {
  answeredEarly.add(nodeMessage(response));
}

export function wasAnsweredEarly(response: object): boolean {
  return answeredEarly.has(nodeMessage(response));
}

/** Marks a 503 that refused the request for now (overload, a dependency out of reach): no fault of the code's. */
export function markRefused(response: object): void {
  refused.add(nodeMessage(response));
}

export function wasRefused(response: object): boolean {
  return refused.has(nodeMessage(response));
}

/**
 * Whether the client is gone: its connection closed, or its side ended, before the answer began (an upload
 * aborted mid-file, say). Nothing can be answered, and the reader's failure is no fault of the service's. Asked of
 * the request: a pipelined request's response has no socket until the answers before it are written.
 */
export function clientLeft(request: object): boolean {
  const { socket } = nodeMessage(request) as { socket?: { destroyed: boolean; writable: boolean } | null };
  return !!socket && (socket.destroyed || !socket.writable);
}
