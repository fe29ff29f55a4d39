import SwaggerParser from '@apidevtools/swagger-parser';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import {
  createImportTestEnvironment,
  createTestDatabase,
  expectOverloadRefusal,
  holdDatabasePool,
  OVERLOAD_TEST_POOL_WAIT_MS,
  type ImportTestEnvironment,
  testRedisUrl,
  type TestDatabase,
  lintErrors,
  lintOpenApi,
  waitFor,
} from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { AppModule } from '../src/app.module.js';
import { importHttpSettings } from '../src/http-settings.js';
import { checkImportConfig, importEnvShape } from '../src/config.js';

const MAX_UPLOAD_BYTES = 64 * 1024;
/** How long this test's service waits for a body that stopped arriving. */
const BODY_IDLE_MS = 1000;
const GDV_FILE = Buffer.from(`${'0001'.padEnd(256, ' ')}\n${'9999'.padEnd(256, ' ')}\n`, 'latin1');
const CSV_FILE = Buffer.from('kunde_nachname;kunde_vorname;vertrag_nummer\nMüller;Julia;PH-1\n', 'utf8');

/** Every file the storage directory holds, at any depth. */
function storedFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

interface OpenApiOperation {
  operationId: string;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

describe('import API (POST /api/v1/import, GET /api/v1/list)', () => {
  let database: TestDatabase;
  let environment: ImportTestEnvironment;
  let app: INestApplication;
  const server = () => app.getHttpServer() as App;
  const token = (claims: Record<string, unknown> = {}) => environment.authServer.token({ claims });
  const bearer = async (claims: Record<string, unknown> = {}) => `Bearer ${await token(claims)}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    await insertBrokerFixture(database.url);
    environment = await createImportTestEnvironment();
    const config = parseConfig(importEnvShape, {
      ...environment.env,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      LOG_LEVEL: 'silent',
      IMPORT_MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES),
      DB_POOL_WAIT_MS: OVERLOAD_TEST_POOL_WAIT_MS,
    });
    checkImportConfig(config);
    app = await createHttpApp(AppModule.forRoot(config), {
      ...importHttpSettings(config),
      bodyIdleMs: BODY_IDLE_MS,
    });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await environment?.cleanup();
  });

  async function processCount(): Promise<number> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM "import".import_process',
      );
      return result.rows[0]?.count ?? 0;
    } finally {
      await client.end();
    }
  }

  describe('authentication', () => {
    it('answers a request without a token with 401 and WWW-Authenticate invalid_token', async () => {
      const response = await request(server()).get('/api/v1/list').expect(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
      expect(response.body).toEqual({
        name: 'AuthenticationFailed',
        message: 'A bearer token is required',
        code: 1101,
        status: 401,
      });
    });

    it('answers an expired token with 401', async () => {
      const expired = await environment.authServer.token({ expiresIn: -10 });
      const response = await request(server()).get('/api/v1/list').set('Authorization', `Bearer ${expired}`);
      expect(response.status).toBe(401);
      expect(response.body.message).toBe('The token has expired');
    });

    it('answers a token without service.imports with 403 insufficient_scope', async () => {
      const response = await request(server())
        .get('/api/v1/list')
        .set('Authorization', await bearer({ scope: 'profile' }))
        .expect(403);
      expect(response.headers['www-authenticate']).toBe(
        'Bearer error="insufficient_scope", scope="service.imports"',
      );
      expect(response.body).toMatchObject({ name: 'InsufficientScope', status: 403 });
    });

    it('refuses an upload without a token before storing anything', async () => {
      await request(server()).post('/api/v1/import').attach('file', GDV_FILE, 'a.gdv').expect(401);
      expect(storedFiles(environment.storageDir)).toEqual([]);
    });

    it('answers a token whose tenant, broker, subject or client holds a NUL or is overlong with 401', async () => {
      const claims = [
        { tenant: 'de\u0000mo' },
        { broker_id: 'V1000\u0000' },
        { sub: '\u0000user' },
        { client_id: 'portal\u0000', sub: undefined },
        { broker_id: 'V'.repeat(257) },
      ];
      for (const claim of claims) {
        const authorization = await bearer(claim);
        for (const call of [
          request(server()).get('/api/v1/list'),
          request(server()).get('/api/v1/webhooks'),
          request(server()).post('/api/v1/import').attach('file', GDV_FILE, 'a.gdv'),
        ]) {
          const response = await call.set('Authorization', authorization);
          expect({ claim, status: response.status, name: response.body.name }).toEqual({
            claim,
            status: 401,
            name: 'AuthenticationFailed',
          });
        }
      }
      expect(storedFiles(environment.storageDir)).toEqual([]);
    });

    it('answers a token of a blocked broker with 403', async () => {
      const response = await request(server())
        .get('/api/v1/list')
        .set('Authorization', await bearer({ broker_id: 'V1900' }))
        .expect(403);
      expect(response.body.message).toBe('Broker V1900 is blocked');
    });
  });

  describe('POST /api/v1/import refusals (nothing kept)', () => {
    afterEach(async () => {
      expect(storedFiles(environment.storageDir)).toEqual([]);
      expect(await processCount()).toBe(0);
    });

    it.each([
      ['no file at all', undefined, 'file is empty'],
      ['an empty file', Buffer.alloc(0), 'file is empty'],
      [
        'a file of neither format',
        Buffer.from('\u0000\u0001binary'),
        'The file is neither a GDV file nor a CSV import file',
      ],
    ])('400 for %s', async (_case, file, message) => {
      const call = request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer());
      const response = await (file ? call.attach('file', file, 'upload.dat') : call.field('broker', ''));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ name: 'ValidationFailed', message, code: 1000, status: 400 });
    });

    it('400 "no companies set" for a GDV file without companies', async () => {
      const response = await request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer())
        .attach('file', GDV_FILE, 'bestand.gdv')
        .expect(400);
      expect(response.body.message).toBe('no companies set');
    });

    it('400 for unknown company ids', async () => {
      const response = await request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer())
        .field('companies[0]', '9999')
        .field('companies[1]', '4711')
        .attach('file', GDV_FILE, 'bestand.gdv')
        .expect(400);
      expect(response.body.message).toBe('Unknown companies: 4711');
    });

    it.each([
      ['colour', 'colour'],
      ['__proto__[x]', '__proto__'],
      ['constructor[x]', 'constructor'],
      ['hasOwnProperty', 'hasOwnProperty'],
    ])('400 naming the unknown form field %s', async (field, name) => {
      const response = await request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer())
        .field(field, '1')
        .attach('file', CSV_FILE, 'kunden.csv')
        .expect(400);
      expect(response.body.message).toBe(`property ${name} should not exist`);
    });

    it('403 for a blocked sub-broker', async () => {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      const setBlocked = (blocked: boolean) =>
        client.query(`UPDATE broker.broker SET blocked = $1 WHERE broker_number = 'V1002'`, [blocked]);
      try {
        await setBlocked(true);
        const response = await request(server())
          .post('/api/v1/import')
          .set('Authorization', await bearer())
          .field('broker', 'V1002')
          .attach('file', CSV_FILE, 'kunden.csv')
          .expect(403);
        expect(response.body.message).toBe('Broker V1002 is blocked');
      } finally {
        await setBlocked(false);
        await client.end();
      }
    });

    it.each([
      ['another broker tree', 'V2000'],
      ['the parent of the caller', 'V1000'],
      ['a broker that does not exist', 'V7777'],
    ])('403 for a broker in %s', async (_case, broker) => {
      const response = await request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer({ broker_id: 'V1001' }))
        .field('broker', broker)
        .attach('file', CSV_FILE, 'kunden.csv')
        .expect(403);
      expect(response.body.message).toBe(`Broker ${broker} is neither yours nor one of your sub-brokers`);
    });

    it('413 above IMPORT_MAX_UPLOAD_BYTES', async () => {
      const tooLarge = Buffer.concat([GDV_FILE, Buffer.alloc(MAX_UPLOAD_BYTES, 0x20)]);
      const response = await request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer())
        .field('companies[0]', '9999')
        .attach('file', tooLarge, 'big.gdv')
        .expect(413);
      expect(response.body).toMatchObject({ name: 'PayloadTooLarge', status: 413 });
    });

    async function listeningPort(): Promise<number> {
      const listening = app.getHttpServer() as http.Server;
      if (!listening.listening)
        await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
      return (listening.address() as AddressInfo).port;
    }

    interface RawAnswer {
      status: number;
      body: unknown;
      connection?: string;
      ms: number;
    }

    /**
     * POSTs to `path` by hand, with a token and `headers`; `send` writes the body as it likes (it is told whether
     * the answer has come). Resolves with the answer once it is read.
     */
    async function rawPost(
      path: string,
      headers: Record<string, string>,
      send: (sent: http.ClientRequest, answered: () => boolean) => void,
    ): Promise<RawAnswer> {
      const port = await listeningPort();
      const authorization = await bearer();
      const started = Date.now();
      return new Promise((resolve, reject) => {
        let answered = false;
        const sent = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path,
            headers: { Authorization: authorization, ...headers },
          },
          (response) => {
            answered = true;
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                body: JSON.parse(text) as unknown,
                connection: response.headers.connection,
                ms: Date.now() - started,
              }),
            );
          },
        );
        // The service may close the connection while the body is still being sent.
        sent.on('error', (error) => !answered && reject(error));
        send(sent, () => answered);
      });
    }

    /** Sends the headers of an upload (to `path`) that claims `length` bytes, and at most `body` of them. */
    async function declaredUpload(
      length: number,
      headers: Record<string, string>,
      body?: Buffer,
      path = '/api/v1/import',
    ) {
      let continued = false;
      const headersSent = {
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(length),
        ...headers,
      };
      const answer = await rawPost(path, headersSent, (sent) => {
        sent.on('continue', () => {
          continued = true;
          sent.end(body);
        });
        if (body && !headers.Expect) sent.write(body);
      });
      return { ...answer, continued };
    }

    it('413 from a Content-Length above the limit, before a byte of the body is read', async () => {
      const before = await processCount();
      // Not one byte of the 300 MiB it claims is sent: the answer cannot have waited for them.
      const answer = await declaredUpload(300 * 1024 ** 2, {}, Buffer.from('--x\r\n'));
      expect(answer).toMatchObject({ status: 413, body: { name: 'PayloadTooLarge', status: 413 } });
      expect(await processCount()).toBe(before);
      expect(storedFiles(environment.storageDir)).toEqual([]);
    });

    it('answers Expect: 100-continue of an oversized upload with 413, and a fitting one with 100 Continue', async () => {
      const refused = await declaredUpload(300 * 1024 ** 2, { Expect: '100-continue' });
      expect(refused).toMatchObject({ status: 413, continued: false });
      const form = Buffer.from(
        '--x\r\nContent-Disposition: form-data; name="broker"\r\n\r\nV1000\r\n--x--\r\n',
      );
      const fitting = await declaredUpload(form.length, { Expect: '100-continue' }, form);
      // Continued, then refused for the missing file: the body was asked for and read.
      expect(fitting).toMatchObject({ status: 400, continued: true });
    });

    /** The most a chunked test body sends; the service must have answered long before. */
    const CHUNKED_CAP_BYTES = 256 * 1024 ** 2;

    /**
     * Sends a chunked body (no Content-Length) to `path`: `head`, then spaces in 64 KiB chunks until the answer comes
     * (up to CHUNKED_CAP_BYTES), or nothing more when it `stalls`. Resolves with the answer and what had been sent.
     */
    async function chunkedBody(path: string, contentType: string, head: string, stalls: boolean) {
      let sentBytes = 0;
      const headers = { 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' };
      const answer = await rawPost(path, headers, (sent, answered) => {
        sent.write(head);
        // Some of the file, so that a part of it is stored before the body stalls.
        if (stalls) return void sent.write(Buffer.alloc(8 * 1024, 0x20));
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (!answered() && sentBytes < CHUNKED_CAP_BYTES) {
            sentBytes += chunk.length;
            if (!sent.write(chunk)) return void sent.once('drain', pump);
          }
          if (!answered()) sent.end();
        };
        pump();
      });
      return { ...answer, sentBytes };
    }

    const FILE_PART_HEAD =
      '--x\r\nContent-Disposition: form-data; name="file"; filename="endlos.gdv"\r\n' +
      'Content-Type: application/octet-stream\r\n\r\n';
    /** A file upload without a Content-Length that goes on until answered, or `stalls` after its first bytes. */
    const chunkedUpload = (stalls: boolean) =>
      chunkedBody('/api/v1/import', 'multipart/form-data; boundary=x', FILE_PART_HEAD, stalls);
    /** An answer at once in the area's shape, closing the connection. */
    const refusedAtOnce = (status: number, name: string) => ({
      status,
      body: { name, status },
      connection: 'close',
    });

    it('answers a chunked upload 413 as soon as it passes the limit, and closes the connection', async () => {
      const before = await processCount();
      const answer = await chunkedUpload(false);
      expect(answer).toMatchObject(refusedAtOnce(413, 'PayloadTooLarge'));
      // The limit is the file's and the framing's (about 1 MiB here); socket buffers hold a few MiB more at most.
      expect(answer.sentBytes).toBeLessThan(32 * 1024 ** 2);
      expect(await processCount()).toBe(before);
      await waitFor(() => (storedFiles(environment.storageDir).length === 0 ? true : undefined), 5000);
    });

    it('answers a chunked JSON body 413 as soon as it passes the JSON limit', async () => {
      const answer = await chunkedBody('/api/v1/webhooks', 'application/json', '{"url":"', false);
      expect(answer).toMatchObject(refusedAtOnce(413, 'PayloadTooLarge'));
      expect(answer.sentBytes).toBeLessThan(32 * 1024 ** 2);
    });

    it('answers 408 to an upload whose body stops arriving, and keeps nothing of it', async () => {
      const before = await processCount();
      const answer = await chunkedUpload(true);
      expect(answer).toMatchObject(refusedAtOnce(408, 'RequestTimeout'));
      expect(answer.ms).toBeGreaterThanOrEqual(BODY_IDLE_MS - 50);
      expect(await processCount()).toBe(before);
      await waitFor(() => (storedFiles(environment.storageDir).length === 0 ? true : undefined), 5000);
    });

    it('keeps nothing of a stalled upload that declared its length', async () => {
      const port = await listeningPort();
      const socket = net.connect({ port, host: '127.0.0.1' });
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/v1/import HTTP/1.1\r\nHost: import\r\nAuthorization: ${await bearer()}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${MAX_UPLOAD_BYTES}\r\n\r\n` +
          `${FILE_PART_HEAD}${' '.repeat(8 * 1024)}`,
      );
      try {
        await waitFor(
          () => (answer.includes('RequestTimeout') ? true : undefined),
          5_000,
          () => answer,
        );
        // The part of the file stored so far is removed once the connection is gone.
        await waitFor(
          () => (storedFiles(environment.storageDir).length === 0 ? true : undefined),
          5_000,
          () => storedFiles(environment.storageDir).join('\n'),
        );
      } finally {
        socket.destroy();
      }
    });

    it('answers a body above the JSON limit on any other path with 413 and no 100 Continue', async () => {
      for (const path of ['/api/v1//import', '/api/v1/import/x', '/api/v1/processes', '/nowhere']) {
        const refused = await declaredUpload(2 * 1024 ** 2, { Expect: '100-continue' }, undefined, path);
        expect({ path, ...refused }).toMatchObject({ path, status: 413, continued: false });
      }
    });
  });

  describe('accepted uploads and the process list', () => {
    let gdvProcess: string;
    let csvProcess: string;

    it('accepts a GDV file with companies and answers the process id', async () => {
      const response = await request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer())
        .field('companies[0]', '9999')
        .field('companies[1]', '5512')
        .attach('file', GDV_FILE, 'bestand.gdv')
        .expect(200);
      expect(Object.keys(response.body as object)).toEqual(['process_id']);
      gdvProcess = response.body.process_id;
      expect(storedFiles(environment.storageDir)).toHaveLength(1);
    });

    it('accepts a CSV file for a sub-broker below a sub-broker', async () => {
      const response = await request(server())
        .post('/api/v1/import')
        .set('Authorization', await bearer())
        .field('broker', 'V1003')
        .attach('file', CSV_FILE, 'kunden.csv')
        .expect(200);
      csvProcess = response.body.process_id;
      expect(storedFiles(environment.storageDir)).toHaveLength(2);
    });

    it('lists both, newest first, exactly in the ImportProcess shape', async () => {
      const before = Math.floor(Date.now() / 1000) - 60;
      const response = await request(server())
        .get('/api/v1/list')
        .set('Authorization', await bearer())
        .expect(200);
      expect(response.body).toEqual([
        {
          process_id: csvProcess,
          status: 'uploaded',
          broker: { id: 'V1003', name: 'Hafen Assekuranz' },
          start_time: expect.any(Number),
          end_time: null,
          type: 'CSV',
        },
        {
          process_id: gdvProcess,
          status: 'uploaded',
          companies: [
            { id: '5512', name: 'HDI-Gerling Firmen und Privat' },
            { id: '9999', name: 'XXX Versicherung AG' },
          ],
          broker: { id: 'V1000', name: 'Muster Makler GmbH' },
          start_time: expect.any(Number),
          end_time: null,
          type: 'GDV',
        },
      ]);
      for (const process of response.body as { start_time: number }[]) {
        expect(Number.isInteger(process.start_time)).toBe(true);
        expect(process.start_time).toBeGreaterThan(before);
      }
    });

    it('shows a sub-broker only its own subtree, and another broker nothing', async () => {
      const v1001 = await request(server())
        .get('/api/v1/list')
        .set('Authorization', await bearer({ broker_id: 'V1001' }));
      expect((v1001.body as { process_id: string }[]).map((p) => p.process_id)).toEqual([csvProcess]);
      const v1002 = await request(server())
        .get('/api/v1/list')
        .set('Authorization', await bearer({ broker_id: 'V1002' }));
      expect(v1002.body).toEqual([]);
      const v2000 = await request(server())
        .get('/api/v1/list')
        .set('Authorization', await bearer({ broker_id: 'V2000' }));
      expect(v2000.body).toEqual([]);
    });

    it('pages with limit and offset and refuses out-of-range values', async () => {
      const page = await request(server())
        .get('/api/v1/list?limit=1&offset=1')
        .set('Authorization', await bearer())
        .expect(200);
      expect((page.body as { process_id: string }[]).map((p) => p.process_id)).toEqual([gdvProcess]);
      for (const query of [
        'limit=0',
        'limit=1001',
        'offset=-1',
        'limit=abc',
        'offset=9223372036854775807',
        'offset=1e308',
      ]) {
        const refused = await request(server())
          .get(`/api/v1/list?${query}`)
          .set('Authorization', await bearer());
        expect(refused.status).toBe(400);
      }
    });
  });

  it('refuses a request with 503 and Retry-After in the area shape while no database connection is free', async () => {
    const list = async () =>
      request(server())
        .get('/api/v1/list')
        .set('Authorization', await bearer());
    const held = await holdDatabasePool(app);
    try {
      expectOverloadRefusal(await list(), 'api');
    } finally {
      held.release();
    }
    expect((await list()).status).toBe(200);
  });

  it('serves its OpenAPI 3.0 description without a token: upload, list, report, OAuth 2.0 client credentials', async () => {
    const response = await request(app.getHttpServer() as App)
      .get('/api/v1/openapi.json')
      .expect(200);
    const document = response.body as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            parameters?: { in: string; name: string }[];
            requestBody?: { content: Record<string, unknown> };
          }
        >
      >;
      components: { securitySchemes: Record<string, { flows?: object }> };
    };
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(lintErrors(await lintOpenApi(document))).toEqual([]);
    expect(document.openapi).toBe('3.0.3');
    expect(document.servers.map((server) => server.url)).toEqual(['/api/v1']);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/import',
      '/list',
      '/processes/{processId}/events',
      '/processes/{processId}/report',
      '/webhooks',
      '/webhooks/{endpointId}',
      '/webhooks/{endpointId}/attempts',
      '/webhooks/{endpointId}/secret',
    ]);
    expect(document.paths['/import'].post.operationId).toBe('startImport');
    expect(document.paths['/list'].get.operationId).toBe('listImports');
    expect(document.paths['/list'].get.parameters?.map((parameter) => parameter.in)).toContain('query');
    expect(Object.keys(document.paths['/import'].post.requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
    ]);
    // Extensions: the event stream with its events' schema, and the dry run's answers.
    const events = (
      document.paths['/processes/{processId}/events'] as unknown as Record<string, OpenApiOperation>
    ).get;
    expect(events.operationId).toBe('streamImportEvents');
    expect(events.responses['200'].content).toEqual({
      'text/event-stream': {
        schema: { type: 'string' },
        'x-event-data': { $ref: '#/components/schemas/ImportProcessEvent' },
      },
    });
    expect(Object.keys((document.paths['/import'].post as unknown as OpenApiOperation).responses)).toEqual(
      expect.arrayContaining(['200', '202']),
    );
    expect(document.components.securitySchemes.oauth2.flows).toEqual({
      clientCredentials: {
        tokenUrl: '/oauth/token',
        scopes: { 'service.imports': expect.any(String) },
      },
    });
  });
});
