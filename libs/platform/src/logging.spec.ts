import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { NestLogger, requestLogOptions } from './logging.js';

describe('request log', () => {
  // The request is logged as it arrived: the logger changes copies only.
  const SECRET = 'secret-4711';
  const lines: string[] = [];
  const seenByHandler: http.IncomingHttpHeaders[] = [];
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const logger = pinoHttp(requestLogOptions({ service: 'test', level: 'info' }), {
      write: (line: string) => lines.push(line),
    });
    server = http.createServer((request, response) => {
      // As Express and Fastify set it: the query as an object.
      const query = Object.fromEntries(new URL(request.url ?? '/', 'http://x').searchParams);
      logger(Object.assign(request, { query }), response);
      if (request.url?.startsWith('/fails')) {
        const driverError = Object.assign(new Error('duplicate key'), {
          parameters: [SECRET],
          detail: `Key (name)=(${SECRET}) already exists.`,
          code: '23505',
        });
        const error = Object.assign(new Error('query failed'), {
          ...driverError,
          driverError,
          query: 'INSERT',
        });
        request.log.error({ err: error }, 'failed');
        request.log.error({ err: 'just a text' }, 'odd');
        request.log.error({ err: new AggregateError([error], 'several failed') }, 'aggregate');
        // A Nest HttpException keeps its options, the cause among them, as a field of its own.
        request.log.error(
          { err: Object.assign(new Error('conflict'), { options: { cause: error } }) },
          'caused',
        );
      }
      response.setHeader('Set-Cookie', `sid=${SECRET}`);
      response.end('ok', () => seenByHandler.push(request.headers));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  async function send(path: string): Promise<Record<string, unknown>[]> {
    lines.length = 0;
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: {
        Authorization: `Bearer ${SECRET}`,
        Cookie: `sid=${SECRET}`,
        'X-Svc-Digest': SECRET,
        'X-Svc-Otp': SECRET,
        'X-Svc-Nonce': SECRET,
        'X-Visible': 'shown',
      },
    });
    await response.text();
    await new Promise((resolve) => setImmediate(resolve));
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('replaces credentials in headers, query and URL, and leaves the request itself as it was', async () => {
    const [line] = await send(`/signing?TOKEN=${SECRET}&x=1`);
    expect(JSON.stringify(line)).not.toContain(SECRET);
    expect(line).toMatchObject({
      service: 'test',
      req: {
        url: '/signing?TOKEN=[redacted]&x=1',
        query: { TOKEN: '[redacted]', x: '1' },
        headers: {
          authorization: '[redacted]',
          cookie: '[redacted]',
          'x-svc-digest': '[redacted]',
          'x-svc-otp': '[redacted]',
          'x-svc-nonce': '[redacted]',
          'x-visible': 'shown',
        },
      },
      res: { statusCode: 200, headers: { 'set-cookie': '[redacted]' } },
    });
    expect(seenByHandler.at(-1)).toMatchObject({
      authorization: `Bearer ${SECRET}`,
      cookie: `sid=${SECRET}`,
    });
  });

  it("replaces a failed query's bound values and detail line, also in its driver error, an AggregateError's errors and a Nest exception's cause", async () => {
    const [failed, odd, aggregate, caused] = await send('/fails');
    expect(JSON.stringify([failed, odd, aggregate, caused])).not.toContain(SECRET);
    expect(failed.err).toMatchObject({
      message: 'query failed',
      parameters: '[redacted]',
      detail: '[redacted]',
      query: 'INSERT',
      driverError: {
        message: 'duplicate key',
        parameters: '[redacted]',
        detail: '[redacted]',
        code: '23505',
      },
    });
    expect(odd.err).toBe('just a text');
    expect(aggregate.err).toMatchObject({
      aggregateErrors: [{ parameters: '[redacted]', detail: '[redacted]' }],
    });
    expect(caused.err).toMatchObject({
      options: { cause: { parameters: '[redacted]', detail: '[redacted]' } },
    });
  });
});

describe('NestLogger', () => {
  const lines: string[] = [];
  const nest = new NestLogger(pino({ level: 'trace' }, { write: (line: string) => lines.push(line) }));

  function written(log: () => void): Record<string, unknown> {
    lines.length = 0;
    log();
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]) as Record<string, unknown>;
  }

  it("writes Nest's calls as pino lines, the logger's name (passed last) as context", () => {
    expect(written(() => nest.log('Mapped %s', '/x', 'RouterExplorer'))).toMatchObject({
      level: 30,
      context: 'RouterExplorer',
      msg: 'Mapped /x',
    });
    expect(written(() => nest.verbose('details'))).toMatchObject({ level: 10, msg: 'details' });
    expect(written(() => nest.warn({ id: 7 }, 'seen %d times', 3, 'Sweeper'))).toMatchObject({
      level: 40,
      context: 'Sweeper',
      id: 7,
      msg: 'seen 3 times',
    });
    expect(written(() => nest.fatal('gone', 'Shutdown'))).toMatchObject({ level: 60, context: 'Shutdown' });
  });

  it('writes an error given first as err, and the stack Nest handlers pass after a text as its stack', () => {
    expect(written(() => nest.error(new Error('broken'), 'while saving', 'Import'))).toMatchObject({
      level: 50,
      context: 'Import',
      msg: 'while saving',
      err: { message: 'broken', type: 'Error' },
    });
    const stack = 'Error: boom\n    at handler (app.js:1:1)';
    expect(written(() => nest.error('boom', stack, 'ExceptionsHandler'))).toMatchObject({
      level: 50,
      context: 'ExceptionsHandler',
      err: { message: 'boom', stack },
    });
  });
});
