import type { ServerResponse } from 'node:http';
import { DomainError, ErrorCode } from '@broker/errors';

/**
 * Starts an answer of Server-Sent Events: 200 with the stream's headers, unless `open` streams of this process
 * reached `max` already (then 503 with Retry-After, before anything is written).
 */
export function startEventStream(response: ServerResponse, open: number, max: number): void {
  if (open >= max)
    throw new DomainError(ErrorCode.Overloaded, 'Too many event streams are open; try again shortly', [], {
      'Retry-After': '5',
    });
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store, no-transform',
    // nginx (the gateway) passes the events on as they come instead of buffering the answer.
    'X-Accel-Buffering': 'no',
  });
  // At once: a stream with nothing to tell yet would otherwise leave its client waiting for the headers.
  response.flushHeaders();
}
