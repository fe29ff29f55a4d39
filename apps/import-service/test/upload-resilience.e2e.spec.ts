import { readdirSync } from 'node:fs';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import {
  createImportTestEnvironment,
  createTestDatabase,
  type ImportTestEnvironment,
  startTcpProxy,
  type TcpProxy,
  type TestDatabase,
  testRedisUrl,
  waitFor,
} from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { AppModule } from '../src/app.module.js';
import { importEnvShape } from '../src/config.js';
import { importHttpSettings, uploadRequestTimeoutMs } from '../src/http-settings.js';

/** How long a body may stop arriving here (30 s in the service), and how long the rest of an answered one is dropped. */
const BODY_IDLE_MS = 1_000;

const CSV_FILE = Buffer.from('kunde_nachname;kunde_vorname;vertrag_nummer\nMüller;Julia;PH-1\n', 'utf8');

/** Uploads while Redis is away, and uploads repeated with an Idempotency-Key: never a hang, never twice. */
describe('import API: uploads while Redis is down, and Idempotency-Key', () => {
  let database: TestDatabase;
  let environment: ImportTestEnvironment;
  let redis: TcpProxy;
  let app: INestApplication;
  let db: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    await insertBrokerFixture(database.url);
    environment = await createImportTestEnvironment();
    const real = new URL(testRedisUrl());
    redis = await startTcpProxy({ host: real.hostname, port: Number(real.port || 6379) });
    const config = parseConfig(importEnvShape, {
      ...environment.env,
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      IMPORT_QUEUE_PREFIX: `bp-test-resilience-${process.pid}`,
      LOG_LEVEL: 'silent',
    });
    app = await createHttpApp(AppModule.forRoot(config), {
      ...importHttpSettings(config),
      bodyIdleMs: BODY_IDLE_MS,
    });
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await app?.close();
    await redis?.close();
    await database?.drop();
    await environment?.cleanup();
  });

  const processCount = async () =>
    Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM "import".import_process')).rows[0].n);
  const storedFiles = () =>
    readdirSync(environment.storageDir, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    ).length;
  /** An upload of the CSV file by V1000 (or the caller `claims` make), answered with `status`. */
  const upload = async (
    status: number,
    headers: Record<string, string> = {},
    claims: Record<string, unknown> = {},
  ) => {
    const token = await environment.authServer.token({ claims });
    return request(app.getHttpServer() as App)
      .post('/api/v1/import')
      .set('Authorization', `Bearer ${token}`)
      .set(headers)
      .attach('file', CSV_FILE, 'kunden.csv')
      .expect(status);
  };

  it('answers 503 with Retry-After within seconds while Redis is down, creating nothing, and uploads once it is back', async () => {
    const [processes, files] = [await processCount(), storedFiles()];
    await redis.pause();
    try {
      const started = Date.now();
      const refused = await upload(503, { 'Idempotency-Key': 'waehrend-redis-weg' });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.body).toMatchObject({
        name: 'DependencyUnavailable',
        message: 'The import queue is unavailable; try again later',
      });
      expect([await processCount(), storedFiles()]).toEqual([processes, files]);
    } finally {
      await redis.resume();
    }
    // The same key again, once Redis is back: the refused attempt created nothing, so this one imports.
    const accepted = await waitFor(
      () => upload(200, { 'Idempotency-Key': 'waehrend-redis-weg' }).catch(() => undefined),
      10_000,
    );
    expect(accepted.body).toEqual({ process_id: expect.any(String) });
    expect(await processCount()).toBe(processes + 1);
  });

  it('answers a repeated Idempotency-Key of the same caller with the first process, importing nothing again', async () => {
    const processes = await processCount();
    const first = await upload(200, { 'Idempotency-Key': 'bestand-2026-11' });
    const files = storedFiles();
    const again = await upload(200, { 'Idempotency-Key': 'bestand-2026-11' });
    expect(again.body).toEqual(first.body);
    // Concurrent repeats: one process, the others' files not kept.
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => upload(200, { 'Idempotency-Key': 'gleichzeitig' })),
    );
    expect(
      new Set(concurrent.map((response) => (response.body as { process_id: string }).process_id)).size,
    ).toBe(1);
    expect(await processCount()).toBe(processes + 2);
    expect(storedFiles()).toBe(files + 1);
    // Another caller's key of the same name is its own.
    const otherCaller = await upload(
      200,
      { 'Idempotency-Key': 'bestand-2026-11' },
      { sub: 'employee-02_02' },
    );
    expect(otherCaller.body).not.toEqual(first.body);
    // So is the same subject's key when its token acts for another broker.
    const otherBroker = await upload(200, { 'Idempotency-Key': 'bestand-2026-11' }, { broker_id: 'V2000' });
    expect(otherBroker.body).not.toEqual(first.body);
    expect(await processCount()).toBe(processes + 4);
  });

  it('answers an upload before its file arrives and keeps the connection: the rest is dropped, the next request served', async () => {
    await upload(200, { 'Idempotency-Key': 'langsam-gesendet' });
    const token = await environment.authServer.token();
    const cases = [
      { status: 200, headers: [`Authorization: Bearer ${token}`, 'Idempotency-Key: langsam-gesendet'] },
      { status: 401, headers: ['Authorization: Bearer not-a-token'] },
      { status: 400, headers: [`Authorization: Bearer ${token}`, 'Idempotency-Key: mit leerzeichen'] },
    ];
    for (const { status, headers } of cases) {
      const { socket, answers, sendRest } = await startSlowUpload(headers);
      expect(await answers.next()).toEqual({ status, connection: undefined });
      // The client, still sending its file, meets no closed connection (behind nginx that would be a 502).
      await sendRest();
      socket.write(`GET /api/v1/list HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      expect((await answers.next()).status).toBe(200);
      socket.destroy();
    }
  });

  it('drops the rest of an answered file for at most the body idle time, then closes the connection', async () => {
    const { socket, answers } = await startSlowUpload(['Authorization: Bearer not-a-token']);
    expect((await answers.next()).status).toBe(401);
    // A client that goes on sending its file slowly, as if it had not read the answer.
    socket.on('error', () => undefined);
    const trickle = setInterval(() => socket.write(Buffer.alloc(1024, 'x')), 100);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    try {
      await closed;
    } finally {
      clearInterval(trickle);
    }
    expect(socket.bytesWritten).toBeGreaterThan(8 * 1024);
  }, 15_000);

  /** An upload of 4 MiB on a connection of its own, whose file is sent only when `sendRest` is called. */
  const startSlowUpload = async (headers: string[]) => {
    const server = app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    const boundary = 'langsam';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="kunden.csv"\r\n\r\n`;
    const rest = Buffer.concat([Buffer.alloc(4 * 1024 * 1024, 'x'), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const request = [
      'POST /api/v1/import HTTP/1.1',
      'Host: 127.0.0.1',
      ...headers,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${Buffer.byteLength(head) + rest.length}`,
    ];
    socket.write(`${request.join('\r\n')}\r\n\r\n${head}`);
    const sendRest = () =>
      new Promise<void>((resolve, reject) =>
        socket.write(rest, (error) => (error ? reject(error) : resolve())),
      );
    return { socket, answers: readAnswers(socket), sendRest };
  };

  it("gives the largest upload time on a slow line: Node's limit of a whole request follows IMPORT_MAX_UPLOAD_BYTES", () => {
    // 200 MiB (the default) at 64 KiB/s, not Node's 300 s, which cut a 60 MB upload at 32 KB/s off with 408.
    expect((app.getHttpServer() as Server).requestTimeout).toBe(3_200_000);
    expect(uploadRequestTimeoutMs(1024 * 1024)).toBe(300_000);
  });

  it('refuses an Idempotency-Key that is empty, too long or not ASCII with 400', async () => {
    for (const key of ['x'.repeat(256), 'mit leerzeichen', 'schlüssel']) {
      const response = await upload(400, { 'Idempotency-Key': key });
      expect(response.body).toMatchObject({
        message: 'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once',
      });
    }
  });
});

/** The answers arriving on a raw connection, one at a time (each with a Content-Length). */
function readAnswers(socket: Socket) {
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  const complete = () => {
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = received.subarray(0, end).toString('latin1');
    const length = Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? 0);
    if (received.length < end + 4 + length) return undefined;
    received = received.subarray(end + 4 + length);
    return {
      status: Number(head.split(' ')[1]),
      connection:
        /^connection: *(.*)$/im.exec(head)?.[1]?.trim().toLowerCase().replace('keep-alive', '') || undefined,
    };
  };
  return {
    next: () =>
      waitFor(() => {
        if (socket.destroyed && received.length === 0) throw new Error('the connection was closed');
        return complete();
      }, 10_000),
  };
}
