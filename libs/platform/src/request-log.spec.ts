import { Controller, Get, Logger, Param, Post, Req } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { overloaded } from '@broker/errors';
import { createTestDatabase, type TestDatabase, waitFor } from '@broker/testing';
import { createHttpApp, type HttpPlatform } from './http-app.js';
import { platformTestModule } from '../test/platform-test-module.js';

interface LogLine {
  level: number;
  msg?: string;
  context?: string;
  reqId?: string;
  req?: { id?: string; method?: string; url?: string; query?: Record<string, string> };
  res?: { statusCode?: number };
  err?: { message?: string };
}

@Controller('things')
class ThingsController {
  private readonly logger = new Logger('Things');

  @Get('ok')
  ok(): { ok: boolean } {
    this.logger.log('handled %s', 'ok');
    return { ok: true };
  }

  @Get('named/:name')
  named(@Param('name') name: string): { name: string } {
    return { name };
  }

  @Get('broken')
  broken(): never {
    throw new Error('the handler broke');
  }

  @Get('slow')
  async slow(): Promise<{ slow: boolean }> {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { slow: true };
  }

  @Get('overloaded')
  overloaded(): never {
    throw overloaded();
  }

  @Post('count')
  count(): { counted: number } {
    return { counted: ++counted };
  }

  /** Reads its body as multer does: fails with a plain error when the client leaves before the body's end. */
  @Post('upload')
  async upload(@Req() request: IncomingMessage): Promise<never> {
    uploadsStarted += 1;
    await new Promise((resolve) => request.once('close', resolve).resume());
    throw new Error('Request aborted');
  }
}

let uploadsStarted = 0;

/** How often POST /things/count ran. */
let counted = 0;

/** Largest body of the spec's app. */
const LARGEST_BODY = 64 * 1024;

describe.each<HttpPlatform>(['express', 'fastify'])('request log on %s', (platform) => {
  const lines: string[] = [];
  let database: TestDatabase;
  let app: INestApplication;
  let server: App;

  beforeAll(async () => {
    database = await createTestDatabase();
    const logOutput = { write: (line: string) => lines.push(line) };
    app = await createHttpApp(
      platformTestModule({ service: 'log-test', logLevel: 'info', databaseUrl: database.url, logOutput }, [
        ThingsController,
      ]),
      { platform, largestBody: () => LARGEST_BODY },
    );
    server = app.getHttpServer() as App;
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  /** The lines written while `send` ran, once its response has ended. */
  async function logged<Answer>(send: () => Promise<Answer>): Promise<[Answer, LogLine[]]> {
    lines.length = 0;
    const response = await send();
    await new Promise((resolve) => setImmediate(resolve));
    return [response, lines.map((line) => JSON.parse(line) as LogLine)];
  }

  /** POSTs `bytes` of JSON in chunks of 16 KiB without a Content-Length. */
  async function postChunked(path: string, bytes: number): Promise<{ status: number; connection?: string }> {
    const listening = app.getHttpServer() as Server;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const { port } = listening.address() as AddressInfo;
    try {
      return await new Promise((resolve, reject) => {
        const sent = httpRequest(
          { host: '127.0.0.1', port, path, method: 'POST', headers: { 'Content-Type': 'application/json' } },
          (response) => {
            response
              .resume()
              .on('end', () =>
                resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
              );
          },
        );
        sent.on('error', reject);
        for (let written = 0; written < bytes; written += 16 * 1024) sent.write('x'.repeat(16 * 1024));
        sent.end();
      });
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  }

  it('writes one line per request with its request id, and the lines logged while handling it', async () => {
    const [response, records] = await logged(() =>
      request(server).get('/things/ok?page=2').set('X-Request-ID', 'trace-0815').expect(200),
    );
    expect(response.headers['x-request-id']).toBe('trace-0815');
    expect(records).toEqual([
      expect.objectContaining({ level: 30, context: 'Things', msg: 'handled ok' }),
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: expect.objectContaining({
          id: 'trace-0815',
          method: 'GET',
          url: '/things/ok?page=2',
          query: { page: '2' },
        }) as unknown,
        res: expect.objectContaining({ statusCode: 200 }) as unknown,
      }),
    ]);
  });

  it('logs a server fault with the request id it answered with, and the request at level error', async () => {
    const [response, records] = await logged(() => request(server).get('/things/broken').expect(500));
    const requestId = String(response.headers['x-request-id']);
    expect(response.text).toContain(requestId);
    const fault = records.find((record) => record.context === 'ExceptionFilter');
    expect(fault).toMatchObject({
      level: 50,
      reqId: requestId,
      msg: 'Server fault on GET /things/broken',
      err: { message: 'the handler broke' },
    });
    expect(records.find((record) => record.req)).toMatchObject({
      level: 50,
      req: { id: requestId },
      res: { statusCode: 500 },
    });
  });

  it('logs unknown routes and refused bodies as warnings', async () => {
    const [, unknown] = await logged(() => request(server).get('/nowhere').expect(404));
    expect(unknown).toEqual([
      expect.objectContaining({ level: 40, res: expect.objectContaining({ statusCode: 404 }) as unknown }),
    ]);
    const [, refused] = await logged(() =>
      request(server)
        .post('/things/ok')
        .set('Content-Type', 'application/json')
        .send('{"broken": ')
        .expect(400),
    );
    expect(refused).toEqual([expect.objectContaining({ level: 40, res: expect.anything() as unknown })]);
  });

  it('logs a request refused under overload as one warning, without an error', async () => {
    const [response, records] = await logged(() => request(server).get('/things/overloaded').expect(503));
    expect(response.headers['retry-after']).toBe('1');
    expect(records).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'request refused',
        res: expect.objectContaining({ statusCode: 503 }) as unknown,
      }),
    ]);
    expect(records[0]).not.toHaveProperty('err');
  });

  if (platform === 'express')
    it('logs a chunked body refused while it arrives as one warning', async () => {
      const [response, records] = await logged(() => postChunked('/things/ok', 2 * LARGEST_BODY));
      expect(response).toMatchObject({ status: 413, connection: 'close' });
      expect(records).toEqual([
        expect.objectContaining({ level: 40, res: expect.objectContaining({ statusCode: 413 }) as unknown }),
      ]);
      // The body's reader fails once the connection is closed, after the answer: that is not logged again.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lines).toHaveLength(1);
    });

  if (platform === 'express')
    it('serves no request that follows a refused body on its connection', async () => {
      const listening = app.getHttpServer() as Server;
      await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
      const { port } = listening.address() as AddressInfo;
      // A client that keeps its side open after the service ended its own, and goes on sending.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      let answers = '';
      socket.on('data', (chunk: Buffer) => (answers += chunk.toString()));
      const oversized = 2 * LARGEST_BODY;
      socket.write(
        'POST /things/ok HTTP/1.1\r\nHost: things\r\nContent-Type: application/json\r\n' +
          `Transfer-Encoding: chunked\r\n\r\n${oversized.toString(16)}\r\n${' '.repeat(oversized)}\r\n`,
      );
      await waitFor(() => (answers.includes('413') ? true : undefined), 5_000);
      // The body's end, then another request on the same connection while it lingers.
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.write(
        '0\r\n\r\nPOST /things/count HTTP/1.1\r\nHost: things\r\nContent-Type: application/json\r\n' +
          'Content-Length: 2\r\n\r\n{}',
      );
      // Without the guard the handler ran within milliseconds; its answer went nowhere (the service had ended).
      await new Promise((resolve) => setTimeout(resolve, 500));
      socket.destroy();
      await new Promise((resolve) => listening.close(resolve));
      expect(answers.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 413']);
      expect(counted).toBe(0);
    });

  if (platform === 'express')
    it('logs a request whose client left before its body ended as information, not as a server fault', async () => {
      const listening = app.getHttpServer() as Server;
      await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
      const { port } = listening.address() as AddressInfo;
      lines.length = 0;
      const socket = connect({ port, host: '127.0.0.1' });
      socket.write(
        'POST /things/upload HTTP/1.1\r\nHost: things\r\nContent-Type: application/octet-stream\r\n' +
          'Content-Length: 1000\r\n\r\n0123456789',
      );
      await waitFor(() => (uploadsStarted > 0 ? true : undefined), 5_000);
      socket.destroy();
      const records = await waitFor(() => {
        const parsed = lines.map((line) => JSON.parse(line) as LogLine & { reason?: string });
        return parsed.some((record) => record.context === 'ExceptionFilter') ? parsed : undefined;
      }, 5_000);
      await new Promise((resolve) => listening.close(resolve));
      expect(records.filter((record) => record.context === 'ExceptionFilter')).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'The client left during POST /things/upload',
          reason: 'Request aborted',
        }),
      ]);
      expect(records.filter((record) => record.level >= 50)).toEqual([]);
    });

  it('answers a pipelined request that fails while the one before it is still being answered', async () => {
    const listening = app.getHttpServer() as Server;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const { port } = listening.address() as AddressInfo;
    const socket = connect({ port, host: '127.0.0.1' });
    let answers = '';
    socket.on('data', (chunk: Buffer) => (answers += chunk.toString()));
    // The second one's response has no socket of its own until the first is written.
    socket.write(
      'GET /things/slow HTTP/1.1\r\nHost: things\r\n\r\nGET /things/overloaded HTTP/1.1\r\nHost: things\r\n\r\n',
    );
    try {
      await waitFor(
        () => ((answers.match(/HTTP\/1\.1 \d+/g) ?? []).length === 2 ? true : undefined),
        5_000,
        () => answers,
      );
    } finally {
      socket.destroy();
      await new Promise((resolve) => listening.close(resolve));
    }
    expect(answers.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 503']);
  });

  it('answers and logs a path that is not valid percent-encoding like any refused request', async () => {
    const [response, records] = await logged(() =>
      request(server).get('/things/named/%zz').set('X-Request-ID', 'bad-path-1').expect(400),
    );
    expect(response.headers['x-request-id']).toBe('bad-path-1');
    expect(response.body).toMatchObject({ name: 'MalformedRequest', status: 400 });
    expect(records).toEqual([
      expect.objectContaining({ level: 40, req: expect.objectContaining({ id: 'bad-path-1' }) as unknown }),
    ]);
  });

  it('does not log answered health probes and metrics scrapes, but other paths below /health/', async () => {
    const [scrape, scraped] = await logged(() => request(server).get('/metrics').expect(200));
    expect(scraped).toEqual([]);
    expect(scrape.headers['x-request-id']).toEqual(expect.any(String));
    const [, live] = await logged(() => request(server).get('/health/live').expect(200));
    expect(live).toEqual([]);
    const [, ready] = await logged(() => request(server).get('/health/ready?verbose=1').expect(200));
    expect(ready).toEqual([]);
    const [, other] = await logged(() => request(server).get('/health/other').expect(404));
    expect(other).toEqual([
      expect.objectContaining({
        level: 40,
        req: expect.objectContaining({ url: '/health/other' }) as unknown,
      }),
    ]);
  });
});
