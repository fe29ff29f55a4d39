import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import {
  createImportTestEnvironment,
  createTestDatabase,
  createTestRedisNamespace,
  type ImportTestEnvironment,
  insertBrokerFixture,
  type TestDatabase,
  type TestRedisNamespace,
  waitFor,
} from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { importEnvShape, importWorkerEnvShape } from '../src/config.js';
import { BrokerDirectory } from '../src/imports/broker-directory.js';
import { ImportProcessRepository } from '../src/imports/import-process.repository.js';
import { DirectoryFileStorage } from '../src/storage/file-storage.js';
import { WorkerModule } from '../src/worker.module.js';

const CSV_FILE = Buffer.from(
  'kundennummer;nachname;vorname;vu_nummer;sparte;vertragsnummer;nettobeitrag\n' +
    '4711;Müller;Julia;9999;040;PH-1;54,62\n' +
    '4711;Müller;Julia;5512;030;UF-1;16.81\n' +
    '4712;Schmidt;;9999;040;PH-2;nichts\n',
  'utf8',
);
const GDV_SAMPLE = path.resolve(__dirname, '../../../../shared/gdv-samples/musterdatei_041222.gdv');

describe('import pipeline (worker on real Redis and PostgreSQL)', () => {
  let database: TestDatabase;
  let environment: ImportTestEnvironment;
  let redis: TestRedisNamespace;
  let api: INestApplication;
  let worker: INestApplication;
  let db: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    await insertBrokerFixture(database.url);
    environment = await createImportTestEnvironment();
    redis = createTestRedisNamespace();
    const env = {
      ...environment.env,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      IMPORT_QUEUE_PREFIX: redis.prefix,
      IMPORT_SWEEP_INTERVAL_MS: '200',
      IMPORT_STAGE_IDLE_MS: '1000',
      LOG_LEVEL: 'silent',
    };
    api = await createHttpApp(AppModule.forRoot(parseConfig(importEnvShape, env)));
    await api.init();
    worker = await createHttpApp(WorkerModule.forRoot(parseConfig(importWorkerEnvShape, env)));
    await worker.init();
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await worker?.close();
    await api?.close();
    await redis?.clear();
    await database?.drop();
    await environment?.cleanup();
  });

  async function processState(id: string): Promise<{ status: string; failure_reason: string | null }> {
    const result = await db.query<{ status: string; failure_reason: string | null }>(
      'SELECT status, failure_reason FROM "import".import_process WHERE id = $1',
      [id],
    );
    return result.rows[0];
  }

  async function history(id: string): Promise<string[]> {
    const result = await db.query<{ status: string }>(
      'SELECT status FROM "import".import_status_change WHERE process_id = $1 ORDER BY id',
      [id],
    );
    return result.rows.map((row) => row.status);
  }

  const report = async (id: string, broker = 'V1000') =>
    request(api.getHttpServer() as App)
      .get(`/api/v1/processes/${id}/report`)
      .set(
        'Authorization',
        `Bearer ${await environment.authServer.token({ claims: { broker_id: broker } })}`,
      );

  const statusReaches = (id: string, status: string) =>
    waitFor(async () => ((await processState(id)).status === status ? status : undefined));

  /** A process recorded as the API does, but not enqueued: only the sweeper can start it. */
  async function recordWithoutEnqueueing(
    content: Buffer,
    storedSha256?: string,
    fileType: 'GDV' | 'CSV' = 'CSV',
    vuNumbers: string[] = [],
  ): Promise<string> {
    const storageKey = `uploads/test/${createHash('md5').update(content).update(String(Math.random())).digest('hex')}`;
    await new DirectoryFileStorage(environment.storageDir).write(storageKey, Readable.from([content]));
    const broker = (await api.get(BrokerDirectory).findBroker('demo', 'V1000'))!;
    return api.get(ImportProcessRepository).create({
      broker,
      requestedBy: 'user:test',
      fileType,
      fileName: fileType === 'GDV' ? 'bestand.gdv' : 'kunden.csv',
      fileSize: content.length,
      fileSha256: storedSha256 ?? createHash('sha256').update(content).digest('hex'),
      storageKey,
      companies: await api.get(BrokerDirectory).findCompanies(broker.tenantId, vuNumbers),
    });
  }

  it('moves an upload through uploaded, transmitted, received and imported, staging its rows', async () => {
    const response = await request(api.getHttpServer() as App)
      .post('/api/v1/import')
      .set('Authorization', `Bearer ${await environment.authServer.token()}`)
      .attach('file', CSV_FILE, 'kunden.csv')
      .expect(200);
    const id = (response.body as { process_id: string }).process_id;
    await statusReaches(id, 'validated');
    expect(await history(id)).toEqual(['uploaded', 'transmitted', 'received', 'imported', 'validated']);

    const { status: httpStatus, body } = await report(id);
    expect(httpStatus).toBe(200);
    expect(body).toEqual({
      process_id: id,
      status: 'validated',
      type: 'CSV',
      file: {
        name: 'kunden.csv',
        size: CSV_FILE.length,
        sha256: createHash('sha256').update(CSV_FILE).digest('hex'),
      },
      failure_reason: null,
      counts: {
        customersRead: 2,
        contractsRead: 2,
        rejectedRecords: 1,
        warnings: 0,
        contractsValid: 2,
        contractsRejected: 0,
      },
      history: ['uploaded', 'transmitted', 'received', 'imported', 'validated'].map((status) => ({
        status,
        time: expect.any(Number),
      })),
      issues: [
        {
          stage: 'imported',
          severity: 'rejected',
          line: 4,
          message: 'nettobeitrag "nichts" is not an amount (for example 54,62)',
        },
      ],
      issue_count: 1,
    });
    const staged = await db.query<{ policy_number: string; customer_key: string; line: number }>(
      'SELECT policy_number, customer_key, line FROM "import".staged_contract WHERE process_id = $1 ORDER BY seq',
      [id],
    );
    expect(staged.rows).toEqual([
      { policy_number: 'PH-1', customer_key: 'csv:4711', line: 2 },
      { policy_number: 'UF-1', customer_key: 'csv:4711', line: 3 },
    ]);
  });

  it('answers the report of another broker tree, or of no process, with 404, and a malformed id with 400', async () => {
    const id = await recordWithoutEnqueueing(CSV_FILE);
    expect((await report(id, 'V2000')).status).toBe(404);
    expect((await report(id, 'V1001')).status).toBe(404);
    expect((await report('4f0c1a52-9d7e-4f43-9b8e-0a3c6f1f2d11')).status).toBe(404);
    expect((await report('not-a-uuid')).status).toBe(400);
  });

  it('resumes a process nobody enqueued (worker killed, Redis flushed) through the sweeper', async () => {
    const id = await recordWithoutEnqueueing(CSV_FILE);
    expect((await processState(id)).status).toBe('uploaded');
    await statusReaches(id, 'validated');
    expect(await history(id)).toEqual(['uploaded', 'transmitted', 'received', 'imported', 'validated']);
  });

  it('fails a CSV file whose header is not the import format, naming the columns', async () => {
    const id = await recordWithoutEnqueueing(Buffer.from('kundennummer;farbe\n1;rot\n'));
    await statusReaches(id, 'failed');
    expect((await processState(id)).failure_reason).toBe('Unknown columns: farbe');
  });

  const describeWithSample = existsSync(GDV_SAMPLE) ? it : it.skip;
  if (!existsSync(GDV_SAMPLE))
    console.warn(`GDV sample ${GDV_SAMPLE} is absent: the GDV staging test is skipped`);

  describeWithSample(
    'stages and validates the real GDV sample file: 14 customers and 14 contracts',
    async () => {
      const id = await recordWithoutEnqueueing(readFileSync(GDV_SAMPLE), undefined, 'GDV', ['9999']);
      await statusReaches(id, 'validated');
      const counts = await db.query<{ stage_counts: Record<string, number> }>(
        'SELECT stage_counts FROM "import".import_process WHERE id = $1',
        [id],
      );
      expect(counts.rows[0]?.stage_counts).toMatchObject({ customersRead: 14, contractsRead: 14 });
      console.log(JSON.stringify(counts.rows[0]?.stage_counts));
    },
  );

  describeWithSample('fails a GDV file none of whose contracts belong to the chosen companies', async () => {
    const id = await recordWithoutEnqueueing(readFileSync(GDV_SAMPLE), undefined, 'GDV', ['5512']);
    await statusReaches(id, 'failed');
    expect((await processState(id)).failure_reason).toMatch(
      /^No contract of the file passed validation \(14 rejected; the first: Contract \S+ is of insurer 9999, which is not among the companies of this import\)$/,
    );
  });

  it('rejects contracts of unknown insurers and earlier duplicates of a policy number, keeping the rest', async () => {
    const csv = Buffer.from(
      'kundennummer;nachname;vu_nummer;sparte;vertragsnummer;nettobeitrag\n' +
        '1;Muster;9999;040;PH-7;10,00\n' +
        '1;Muster;4711;040;X-1;10,00\n' +
        '1;Muster;9999;040;PH-7;12,00\n',
    );
    const id = await recordWithoutEnqueueing(csv);
    await statusReaches(id, 'validated');
    const { body } = await report(id);
    const { counts, issues } = body as {
      counts: Record<string, number>;
      issues: { line: number; message: string }[];
    };
    expect(counts).toMatchObject({ contractsRead: 3, contractsValid: 1, contractsRejected: 2 });
    expect(issues.map(({ line, message }) => ({ line, message }))).toEqual([
      { line: 3, message: 'Contract X-1 is of insurer 4711, which is not a known company' },
      {
        line: 2,
        message: 'Contract PH-7 of insurer 9999 occurs again later in the file; the later one is imported',
      },
    ]);
  });

  it('fails a process whose stored file does not match the upload, with a reason the user can act on', async () => {
    const id = await recordWithoutEnqueueing(CSV_FILE, 'f'.repeat(64));
    await statusReaches(id, 'failed');
    expect(await processState(id)).toEqual({
      status: 'failed',
      failure_reason: 'The stored file differs from the upload (checksum mismatch); please upload it again',
    });
    expect(await history(id)).toEqual(['uploaded', 'transmitted', 'failed']);
    const { status: httpStatus, body } = await report(id);
    expect(httpStatus).toBe(200);
    expect(body).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('checksum mismatch'),
    });
  });
});
