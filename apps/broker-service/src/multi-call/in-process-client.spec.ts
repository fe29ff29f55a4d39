import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import express from 'express';
import { InProcessCallers } from '@broker/auth';
import { TEST_CALLER as CALLER } from '../../test/multipart.js';
import { InProcessClient } from './in-process-client.js';
import type { PartCall } from './part-plan.js';

const call = (method: string, path: string, body = '', headers: Record<string, string> = {}): PartCall => ({
  method,
  path,
  headers: { 'content-type': 'text/plain', ...headers },
  body: Buffer.from(body),
});

describe('InProcessClient', () => {
  const callers = new InProcessCallers();
  let server: Server;
  let handle: (request: IncomingMessage, response: ServerResponse) => void;
  const client = () =>
    new InProcessClient(server, callers, CALLER, {
      remoteAddress: '10.0.0.1',
      remotePort: 50123,
      remoteFamily: 'IPv4',
    });

  beforeEach(() => {
    handle = (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.setHeader('Content-Type', 'application/json');
        response.end(
          JSON.stringify({
            method: request.method,
            url: request.url,
            version: request.httpVersion,
            headers: request.headers,
            body: Buffer.concat(chunks).toString(),
            caller: callers.callerOf(request)?.brokerNumber ?? null,
            remoteAddress: request.socket.remoteAddress,
          }),
        );
      });
    };
    server = http.createServer((request, response) => handle(request, response));
  });

  it('hands each call to the server as a request from the bound caller, with its body and framing', async () => {
    const answer = await client().send(call('POST', '/one?x=1', 'hello', { 'x-note': 'Grüße' }));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body.toString())).toEqual({
      method: 'POST',
      url: '/one?x=1',
      version: '1.1',
      headers: { 'content-type': 'text/plain', 'x-note': 'Grüße', 'content-length': '5' },
      body: 'hello',
      caller: 'V1000',
      remoteAddress: '10.0.0.1',
    });
  });

  it('sends a GET or DELETE with a body along with its Content-Length, and a POST without one with 0', async () => {
    const sent = async (method: string, body: string) =>
      JSON.parse((await client().send(call(method, '/', body))).body.toString()) as {
        headers: Record<string, string>;
        body: string;
      };
    expect(await sent('GET', '{"Art":"x"}')).toMatchObject({
      headers: { 'content-length': '11' },
      body: '{"Art":"x"}',
    });
    expect(await sent('DELETE', '{}')).toMatchObject({ headers: { 'content-length': '2' }, body: '{}' });
    expect((await sent('GET', '')).headers).not.toHaveProperty('content-length');
    expect((await sent('POST', '')).headers).toMatchObject({ 'content-length': '0' });
  });

  it('reads an answer as a client does: headers repeated or set with writeHead, a chunked body', async () => {
    handle = (request, response) => {
      response.setHeader('Vary', ['Accept', 'Origin']);
      response.writeHead(201, { 'Last-Modified': 'Sat, 21 Nov 2026 00:00:00 GMT' });
      response.write('first, ');
      response.write(Buffer.from('zweite Hälfte'));
      response.end();
      request.resume();
    };
    const answer = await client().send(call('GET', '/'));
    expect(answer.status).toBe(201);
    expect(answer.headers).toMatchObject({
      vary: 'Accept, Origin',
      'last-modified': 'Sat, 21 Nov 2026 00:00:00 GMT',
      'transfer-encoding': 'chunked',
    });
    expect(answer.body.toString()).toBe('first, zweite Hälfte');
  });

  it('answers a HEAD and a 304 without a body, whatever the handler writes', async () => {
    handle = (request, response) => {
      response.statusCode = request.method === 'HEAD' ? 200 : 304;
      response.setHeader('Content-Type', 'application/json').setHeader('Content-Length', '7');
      response.end('{"a":1}');
    };
    const head = await client().send(call('HEAD', '/'));
    const notModified = await client().send(call('GET', '/'));
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, '7', 0]);
    expect([notModified.status, notModified.headers['content-length'], notModified.body.length]).toEqual([
      304,
      '7',
      0,
    ]);
  });

  it('reads the final answer after interim ones (100 Continue, 103 Early Hints)', async () => {
    handle = (_request, response) => {
      response.writeContinue();
      response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      response.setHeader('Content-Type', 'application/json');
      response.end('{"a":1}');
    };
    const answer = await client().send(call('POST', '/', 'x'));
    expect([answer.status, answer.headers.link, answer.body.toString()]).toEqual([200, undefined, '{"a":1}']);
  });

  it('keeps Set-Cookie a list, as a client does', async () => {
    handle = (_request, response) => {
      response.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2, c; Path=/']);
      response.end();
    };
    expect((await client().send(call('GET', '/'))).headers['set-cookie']).toEqual([
      'a=1; Path=/',
      'b=2, c; Path=/',
    ]);
  });

  it('rejects an answer whose body falls short of its Content-Length', async () => {
    handle = (_request, response) => {
      response.setHeader('Content-Length', '10');
      response.end('12345');
    };
    await expect(client().send(call('GET', '/short'))).rejects.toThrow(
      'GET /short answered 5 of the 10 bytes',
    );
  });

  it.each([
    ['two chunks of 20 KiB', 2, 20 * 1024],
    ['64 chunks of 1 KiB', 64, 1024],
  ])('serves an answer piped in %s (waiting for drain)', async (_case, count, size) => {
    const chunks = Array.from({ length: count }, (_value, index) => Buffer.alloc(size, 97 + (index % 26)));
    handle = (_request, response) => void pipeline(Readable.from(chunks), response);
    const answer = await client().send(call('GET', '/'));
    expect(answer.body.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('offers the socket API handlers use: timeouts, TCP options, the peer', async () => {
    handle = (request, response) => {
      request.setTimeout(1000);
      response.setTimeout(1000);
      request.socket.setNoDelay(true).setKeepAlive(true);
      const { remoteAddress, remotePort, remoteFamily } = request.socket;
      response.end(JSON.stringify({ remoteAddress, remotePort, remoteFamily }));
    };
    const answer = await client().send(call('GET', '/'));
    expect([answer.status, JSON.parse(answer.body.toString())]).toEqual([
      200,
      { remoteAddress: '10.0.0.1', remotePort: 50123, remoteFamily: 'IPv4' },
    ]);
  });

  it('closes request, response and connection after the answer, unread body or not', async () => {
    const closed: string[] = [];
    handle = (request, response) => {
      request.on('close', () => closed.push('request'));
      response.on('close', () => closed.push('response'));
      request.socket.on('close', () => closed.push('connection'));
      response.end('ok'); // the request's body is never read
    };
    await client().send(call('POST', '/', 'unread'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed.sort()).toEqual(['connection', 'request', 'response']);
  });

  it('keeps nothing of a call once it is answered', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const answered: WeakRef<object>[] = [];
    handle = (request, response) => {
      answered.push(new WeakRef(request), new WeakRef(response), new WeakRef(request.socket));
      response.end('ok');
    };
    const sending = client();
    for (let index = 0; index < 3; index++) await sending.send(call('POST', '/', 'body'));
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(answered.filter((reference) => reference.deref() !== undefined)).toHaveLength(0);
  });

  it('rejects a call the server drops without an answer, closing its request', async () => {
    const closed = new Promise((resolve) => {
      handle = (request) => {
        request.on('close', resolve);
        request.socket.destroy();
      };
    });
    await expect(client().send(call('GET', '/'))).rejects.toThrow('GET / ended without an answer');
    await closed;
  });

  it('ends the calls still running when abandoned, as a lost connection would', async () => {
    const closed: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    handle = (request, response) => {
      request.on('close', () => closed.push('request'));
      response.on('close', () => closed.push('response'));
      started(); // and never answers
    };
    const sending = client();
    const answer = sending.send(call('GET', '/slow'));
    await running;
    sending.abandon();
    await expect(answer).rejects.toThrow('GET /slow ended without an answer');
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed.sort()).toEqual(['request', 'response']);
  });

  it('serves a part through an Express app like a request from the network, which still works', async () => {
    const app = express();
    app.use(express.json());
    app.patch('/vermittler/:number', (request, response) => {
      response.json({
        number: request.params.number,
        query: request.query,
        body: request.body as unknown,
        ip: request.ip,
        host: request.get('host'),
        caller: callers.callerOf(request)?.brokerNumber ?? null,
      });
    });
    server = http.createServer(app);
    const answer = await client().send(
      call('PATCH', '/vermittler/V1003?a=1', '{"Ort":"Bremen"}', {
        'content-type': 'application/json',
        host: 'broker.example',
      }),
    );
    expect(JSON.parse(answer.body.toString())).toEqual({
      number: 'V1003',
      query: { a: '1' },
      body: { Ort: 'Bremen' },
      ip: '10.0.0.1',
      host: 'broker.example',
      caller: 'V1000',
    });

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const fromNetwork = await fetch(`http://127.0.0.1:${port}/vermittler/V1001`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(await fromNetwork.json()).toMatchObject({ number: 'V1001', caller: null, ip: '127.0.0.1' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
