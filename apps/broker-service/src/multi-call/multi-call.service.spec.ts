import { once } from 'node:events';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpAdapterHost } from '@nestjs/core';
import { parseMultipart } from '@remix-run/multipart-parser/node';
import { InProcessCallers } from '@broker/auth';
import { TEST_CALLER as CALLER } from '../../test/multipart.js';
import { batchResponse } from './batch-response.js';
import { MultiCallService } from './multi-call.service.js';

const LIMITS = { maxParts: 10, maxPartBytes: 1024, maxRequestBytes: 65536, maxPartHeaderBytes: 8192 };

/** A request part: Content-ID, method, path (under /base) and further header lines. */
type TestPart = [id: string, method: string, path: string, ...headers: string[]];

const batchBody = (parts: readonly TestPart[]) =>
  parts
    .map(([id, method, path, ...headers]) => {
      const lines = [`Content-ID: ${id}`, `X-Svc-Method: ${method}`, `X-Svc-Path: ${path}`, ...headers];
      return `--b\r\n${lines.join('\r\n')}\r\n\r\n\r\n`;
    })
    .join('') + '--b--\r\n';

/** The service over a real HTTP server: POST /base runs a batch, as the controller does; the rest are parts. */
describe('MultiCallService', () => {
  let server: Server;
  let url: string;
  let handlePart: (request: IncomingMessage, response: ServerResponse) => void;

  beforeEach(async () => {
    const callers = new InProcessCallers();
    const adapterHost = { httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost;
    const service = new MultiCallService(adapterHost, callers, LIMITS);
    server = http.createServer((request, response) => {
      if (request.url !== '/base') return handlePart(request, response);
      const abandoned = new AbortController();
      response.on('close', () => {
        if (!response.writableFinished) abandoned.abort();
      });
      service.run(request, CALLER, { routed: '/base', sent: '/base' }, 'r', abandoned.signal).then(
        (answered) => {
          const { contentType, body } = batchResponse(answered);
          response.setHeader('Content-Type', contentType).end(body);
        },
        (error: Error) => response.writeHead(500).end(error.message),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function batch(parts: readonly TestPart[], init: RequestInit = {}) {
    const response = await fetch(url, {
      method: 'POST',
      ...init,
      headers: { 'content-type': 'multipart/related; boundary=b', ...init.headers },
      body: batchBody(parts),
    });
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    const boundary = /boundary="([^"]+)"/.exec(response.headers.get('content-type') ?? '')?.[1] ?? '';
    return [...parseMultipart(body, { boundary })].map((part) => ({
      status: part.headers['x-svc-status'],
      text: part.text,
    }));
  }

  it('gives a part the server drops or cuts short its own 502, and answers its siblings', async () => {
    handlePart = (request, response) => {
      if (request.url === '/base/dropped') response.destroy();
      else if (request.url === '/base/short') response.setHeader('Content-Length', '10').end('12345');
      else response.end('fine');
    };
    const parts = await batch([
      ['<1>', 'GET', '/dropped'],
      ['<2>', 'GET', '/short'],
      ['<3>', 'GET', '/fine'],
    ]);
    expect(parts).toEqual([
      { status: '502 Bad Gateway', text: '{"Meldungen":["The call ended without a complete answer"]}' },
      { status: '502 Bad Gateway', text: '{"Meldungen":["The call ended without a complete answer"]}' },
      { status: '200 OK', text: 'fine' },
    ]);
  });

  it("sends every part to the batch's host from the batch's client, whatever the part states", async () => {
    handlePart = (request, response) => {
      const {
        host,
        forwarded,
        'x-forwarded-for': forwardedFor,
        'x-forwarded-proto': proto,
      } = request.headers;
      response.end(
        JSON.stringify([host, forwarded, forwardedFor, request.headers['x-forwarded-host'], proto]),
      );
    };
    const forged = ['Host: evil.example', 'Forwarded: for=6.6.6.6', 'X-Forwarded-For: 6.6.6.6'];
    const parts = await batch(
      [
        ['<1>', 'GET', '/a', ...forged, 'X-Forwarded-Host: evil.example', 'X-Forwarded-Proto: http'],
        ['<2>', 'GET', '/b'],
      ],
      {
        headers: {
          forwarded: 'for=203.0.113.7;proto=https',
          'x-forwarded-for': '203.0.113.7',
          'x-forwarded-host': 'portal.example',
          'x-forwarded-proto': 'https',
        },
      },
    );
    const seen = [new URL(url).host, 'for=203.0.113.7;proto=https', '203.0.113.7', 'portal.example', 'https'];
    expect(parts.map((part) => JSON.parse(part.text) as unknown)).toEqual([seen, seen]);
  });

  it("ends the running parts when the batch's client goes away, and starts no further one", async () => {
    const seen: string[] = [];
    let partClosed: Promise<unknown> | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    handlePart = (request, response) => {
      seen.push(request.url ?? '');
      partClosed = Promise.all([once(request, 'close'), once(response, 'close')]);
      started(); // and never answers
    };
    const leaving = new AbortController();
    const sent = batch(
      [
        ['<1>', 'GET', '/slow'],
        ['<2>', 'DELETE', '/after'],
      ],
      { signal: leaving.signal },
    );
    await running;
    leaving.abort();
    await expect(sent).rejects.toThrow();
    await partClosed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['/base/slow']);
  });
});
