import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { globalFetch } from './fetch-function.js';
import { type RetryEvent, transportFetch } from './transport.js';

/** What the server received, and how it answers the n-th request (1 for the first). */
interface Received {
  method: string;
  body: string;
}

type Answer = (attempt: number, response: ServerResponse) => void;

/** A real HTTP server on a local port answering with `answer`; every request's method and body kept. */
async function server(
  answer: Answer,
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const http: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', body: Buffer.concat(chunks).toString('utf8') });
      answer(received.length, response);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/call`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

const refuse =
  (status: number, retryAfter?: string): Answer =>
  (_attempt, response) =>
    response.writeHead(status, retryAfter === undefined ? {} : { 'Retry-After': retryAfter }).end('{}');

const ok: Answer = (_attempt, response) => response.writeHead(200, { 'X-Request-Id': 'r-1' }).end('done');

describe('transportFetch', () => {
  it('sends a call answered 503 or 429 again after its Retry-After, the body with it, telling onRetry', async () => {
    const answers = [refuse(503, '0'), refuse(429, '0'), ok];
    const peer = await server((attempt, response) => answers[attempt - 1](attempt, response));
    const events: RetryEvent[] = [];
    try {
      const send = transportFetch(globalFetch, { retry: { onRetry: (event) => events.push(event) } });
      const response = await send(new Request(peer.url, { method: 'POST', body: '{"a":1}' }));
      expect({ status: response.status, text: await response.text() }).toEqual({ status: 200, text: 'done' });
      expect(peer.received).toEqual(Array(3).fill({ method: 'POST', body: '{"a":1}' }));
      expect(events.map(({ attempt, status, delaySeconds }) => ({ attempt, status, delaySeconds }))).toEqual([
        { attempt: 2, status: 503, delaySeconds: 0 },
        { attempt: 3, status: 429, delaySeconds: 0 },
      ]);
    } finally {
      await peer.close();
    }
  });

  it('answers the refusal when the attempts are used up, Retry-After asks for more than the cap, or retries are off', async () => {
    const peer = await server(refuse(503, '0'));
    const slow = await server(refuse(503, '120'));
    try {
      const twice = transportFetch(globalFetch, { retry: { attempts: 2 } });
      expect((await twice(new Request(peer.url))).status).toBe(503);
      expect(peer.received).toHaveLength(2);

      const capped = transportFetch(globalFetch, { retry: { maxDelaySeconds: 60 } });
      expect((await capped(new Request(slow.url))).status).toBe(503);
      expect(slow.received).toHaveLength(1);

      expect((await transportFetch(globalFetch, {})(new Request(peer.url))).status).toBe(503);
      expect(peer.received).toHaveLength(3);
    } finally {
      await Promise.all([peer.close(), slow.close()]);
    }
  });

  it('does not repeat other errors', async () => {
    const peer = await server(refuse(500));
    try {
      const send = transportFetch(globalFetch, { retry: true });
      expect((await send(new Request(peer.url))).status).toBe(500);
      expect(peer.received).toHaveLength(1);
    } finally {
      await peer.close();
    }
  });

  it('aborts an attempt after timeoutMs, and leaves a caller’s own abort to the caller', async () => {
    const peer = await server(() => undefined /* never answers */);
    try {
      const timed = transportFetch(globalFetch, { timeoutMs: 200 });
      const started = Date.now();
      await expect(timed(new Request(peer.url))).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(5_000);

      const caller = new AbortController();
      const untimed = transportFetch(globalFetch, { timeoutMs: 0 });
      const pending = untimed(new Request(peer.url, { signal: caller.signal }));
      caller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await peer.close();
    }
  });
});
