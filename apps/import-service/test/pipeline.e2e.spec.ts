import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import type { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import type { ContractInput, CustomerInput } from '@broker/gdv';
import { type ImportTestEnvironment, writeGdvFile, waitFor } from '@broker/testing';
import { BrokerDirectory } from '../src/imports/broker-directory.js';
import { ImportProcessRepository } from '../src/imports/import-process.repository.js';
import { DirectoryFileStorage } from '../src/storage/file-storage.js';
import {
  type ImportProcessRecord,
  ImportProcessStateRepository,
} from '../src/pipeline/import-process-state.repository.js';
import { ContractsWriteStage } from '../src/pipeline/stages/contracts-write.stage.js';
import { type PipelineApps, startPipelineApps } from './pipeline-apps.js';

const CSV_FILE = Buffer.from(
  'kundennummer;nachname;vorname;vu_nummer;sparte;vertragsnummer;nettobeitrag\n' +
    '4711;Müller;Julia;9999;040;PH-1;54,62\n' +
    '4711;Müller;Julia;5512;030;UF-1;16.81\n' +
    '4712;Schmidt;;9999;040;PH-2;nichts\n',
  'utf8',
);
const gdvCustomer = (overrides: Partial<CustomerInput>): CustomerInput => ({
  vuNumber: '9999',
  sparte: '040',
  policyNumber: 'PH-0',
  broker: '1803012',
  salutationCode: '1',
  name1: 'Muster',
  name3: 'Max',
  insurerCustomerNumber: 'K1',
  ...overrides,
});

const gdvContract = (overrides: Partial<ContractInput>): ContractInput => ({
  vuNumber: '9999',
  sparte: '040',
  policyNumber: 'PH-0',
  broker: '1803012',
  statusCode: '1',
  startDate: '2024-01-01',
  paymentModeCode: '1',
  netPremiumCents: 5_000,
  insurerCustomerNumber: 'K1',
  ...overrides,
});

/** Every status of the spec up to processed, in order. */
const THROUGH_PROCESSED = IMPORT_PIPELINE_STATUSES.slice(
  0,
  IMPORT_PIPELINE_STATUSES.indexOf('processed') + 1,
);
const GDV_SAMPLE = path.resolve(__dirname, '../../../../shared/gdv-samples/musterdatei_041222.gdv');

describe('import pipeline (worker on real Redis and PostgreSQL)', () => {
  let apps: PipelineApps;
  let environment: ImportTestEnvironment;
  let api: INestApplication;
  let worker: INestApplication;
  let db: Client;

  beforeAll(async () => {
    apps = await startPipelineApps();
    ({ environment, api, worker, db } = apps);
  });

  afterAll(async () => {
    await apps?.close();
  });

  /** Rows a process still has in the work tables. */
  async function workRowsOf(id: string): Promise<number> {
    const { rows } = await db.query<{ rows: string }>(
      `SELECT (SELECT count(*) FROM "import".staged_customer WHERE process_id = $1)
            + (SELECT count(*) FROM "import".staged_contract WHERE process_id = $1)
            + (SELECT count(*) FROM "import".merged_customer WHERE process_id = $1)
            + (SELECT count(*) FROM "import".merged_contract WHERE process_id = $1) AS rows`,
      [id],
    );
    return Number(rows[0]?.rows);
  }

  /** Imported customers of the broker tree whose search document is missing or differs from the inventory. */
  async function unsearchable(keyPattern: string): Promise<string[]> {
    const { rows } = await db.query<{ external_key: string }>(
      `SELECT c.external_key FROM broker.customer c
         JOIN broker.customer_search_source v ON v.customer_id = c.id
         LEFT JOIN broker.customer_search s ON s.customer_id = c.id
        WHERE c.external_key LIKE $1
          AND (s.words IS DISTINCT FROM v.words OR s.brokers[1] IS DISTINCT FROM c.broker_id)`,
      [keyPattern],
    );
    return rows.map((row) => row.external_key);
  }

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

  async function list(broker = 'V1000'): Promise<Record<string, unknown>[]> {
    const response = await request(api.getHttpServer() as App)
      .get('/api/v1/list')
      .set('Authorization', `Bearer ${await environment.authServer.token({ claims: { broker_id: broker } })}`)
      .expect(200);
    return response.body as Record<string, unknown>[];
  }

  async function countsOf(id: string): Promise<Record<string, number>> {
    const result = await db.query<{ stage_counts: Record<string, number> }>(
      'SELECT stage_counts FROM "import".import_process WHERE id = $1',
      [id],
    );
    return result.rows[0].stage_counts;
  }

  async function amountOfRecords(id: string): Promise<number | null> {
    const result = await db.query<{ amount_of_records: number | null }>(
      'SELECT amount_of_records FROM "import".import_process WHERE id = $1',
      [id],
    );
    return result.rows[0].amount_of_records;
  }

  /** The customers (by external key pattern) of a broker and their contracts, as the inventory holds them. */
  async function inventoryOf(brokerNumber: string, keyPattern: string) {
    const customers = await db.query(
      `SELECT c.external_key, c.first_name, c.last_name FROM broker.customer c
         JOIN broker.broker b ON b.id = c.broker_id
        WHERE b.broker_number = $1 AND c.external_key LIKE $2 ORDER BY c.external_key`,
      [brokerNumber, keyPattern],
    );
    const contracts = await db.query(
      `SELECT k.policy_number, co.vu_number, k.line_of_business, k.net_premium_cents
         FROM broker.contract k JOIN broker.customer c ON c.id = k.customer_id
         JOIN broker.company co ON co.id = k.company_id JOIN broker.broker b ON b.id = k.broker_id
        WHERE b.broker_number = $1 AND c.external_key LIKE $2 ORDER BY k.policy_number`,
      [brokerNumber, keyPattern],
    );
    return { customers: customers.rows, contracts: contracts.rows };
  }

  interface RecordOptions {
    storedSha256?: string;
    fileType?: 'GDV' | 'CSV';
    vuNumbers?: string[];
    broker?: string;
  }

  /** A process recorded as the API does, but not enqueued: only the sweeper can start it. */
  async function recordWithoutEnqueueing(content: Buffer, options: RecordOptions = {}): Promise<string> {
    const { fileType = 'CSV', vuNumbers = [], broker: brokerNumber = 'V1000' } = options;
    const storageKey = `uploads/test/${createHash('md5').update(content).update(String(Math.random())).digest('hex')}`;
    await new DirectoryFileStorage(environment.storageDir).write(storageKey, Readable.from([content]));
    const broker = (await api.get(BrokerDirectory).findBroker('demo', brokerNumber))!;
    const recorded = await api.get(ImportProcessRepository).create({
      broker,
      requestedBy: 'user:test',
      fileType,
      fileName: fileType === 'GDV' ? 'bestand.gdv' : 'kunden.csv',
      fileSize: content.length,
      fileSha256: options.storedSha256 ?? createHash('sha256').update(content).digest('hex'),
      storageKey,
      companies: await api.get(BrokerDirectory).findCompanies(broker.tenantId, vuNumbers),
    });
    return recorded.processId;
  }

  it('moves a CSV upload through every status to processed and writes its customer and contracts', async () => {
    const response = await request(api.getHttpServer() as App)
      .post('/api/v1/import')
      .set('Authorization', `Bearer ${await environment.authServer.token()}`)
      .attach('file', CSV_FILE, 'kunden.csv')
      .expect(200);
    const id = (response.body as { process_id: string }).process_id;
    await statusReaches(id, 'processed');
    expect(await history(id)).toEqual(THROUGH_PROCESSED);

    const { status: httpStatus, body } = await report(id);
    expect(httpStatus).toBe(200);
    expect(body).toEqual({
      process_id: id,
      status: 'processed',
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
        customersParsed: 1,
        customerRecordsMerged: 1,
        customersWithoutValidContract: 0,
        customersPrepared: 1,
        customersRejected: 0,
        customersMatched: 0,
        customersNew: 1,
        customersCreated: 1,
        customersUpdated: 0,
        addressesWritten: 0,
        contactsAdded: 0,
        contractsExtracted: 2,
        contractsLinked: 2,
        contractsMatched: 0,
        contractsUnlinked: 0,
        contractsCreated: 2,
        contractsUpdated: 0,
        contractsWritten: 2,
      },
      history: THROUGH_PROCESSED.map((status) => ({ status, time: expect.any(Number) })),
      issues: [
        {
          stage: 'imported',
          severity: 'rejected',
          line: 4,
          message: 'nettobeitrag "nichts" is not an amount (for example 54,62)',
        },
      ],
      issue_count: 1,
      progress: { stage: 'processed', done: null, total: null, percent: 100 },
      dry_run: false,
    });

    const listed = await list();
    expect(listed.find((process) => process.process_id === id)).toEqual({
      process_id: id,
      status: 'processed',
      type: 'CSV',
      broker: { id: 'V1000', name: 'Muster Makler GmbH' },
      start_time: expect.any(Number),
      end_time: expect.any(Number),
      amount_of_records: 2,
    });
    expect(await inventoryOf('V1000', 'csv:4711')).toEqual({
      customers: [{ external_key: 'csv:4711', first_name: 'Julia', last_name: 'Müller' }],
      contracts: [
        { policy_number: 'PH-1', vu_number: '9999', line_of_business: '040', net_premium_cents: '5462' },
        { policy_number: 'UF-1', vu_number: '5512', line_of_business: '030', net_premium_cents: '1681' },
      ],
    });
    expect(await unsearchable('csv:%')).toEqual([]);
    expect(await workRowsOf(id)).toBe(0);
  });

  it('normalises what the records of a customer say together, and stores text with backslashes and tabs as it is', async () => {
    const csv = Buffer.from(
      'kundennummer;vorname;nachname;strasse;plz;ort;land;email;telefon;mobil;vu_nummer;sparte;vertragsnummer\n' +
        '4780;Anna;Back\\slash;;;;;anna@example.com;;0171 555;9999;040;NM-1\n' +
        '4780;" Anna \t  Lena ";"Back\\slash";" Hauptstraße   5 ";50 667;Köln;de; Anna@Example.COM ;0221  123 45;;9999;040;NM-2\n',
      'utf8',
    );
    const id = await recordWithoutEnqueueing(csv);
    await statusReaches(id, 'processed');
    const { rows } = await db.query(
      `SELECT c.first_name, c.last_name, a.street, a.postal_code, a.city, a.country,
              (SELECT json_agg(json_build_object('type', k.contact_type, 'value', k.value) ORDER BY k.contact_type)
                 FROM broker.contact k WHERE k.customer_id = c.id) AS contacts,
              (SELECT count(*)::int FROM broker.contract k WHERE k.customer_id = c.id) AS contracts
         FROM broker.customer c LEFT JOIN broker.address a ON a.customer_id = c.id AND a.address_no = 0
        WHERE c.external_key = 'csv:4780'`,
    );
    // The latest record gives the fields, normalised; the contact entries of both, without duplicates.
    expect(rows).toEqual([
      {
        first_name: 'Anna Lena',
        last_name: 'Back\\slash',
        street: 'Hauptstraße 5',
        postal_code: '50667',
        city: 'Köln',
        country: 'DE',
        contacts: [
          { type: 'email', value: 'anna@example.com' },
          { type: 'mobil', value: '0171 555' },
          { type: 'telefon', value: '0221 123 45' },
        ],
        contracts: 2,
      },
    ]);
    expect(await unsearchable('csv:4780')).toEqual([]);
  });

  it('reports a contract another broker wrote after the check instead of leaving it out silently', async () => {
    const { rows } = await db.query<{ process_id: string }>(
      `WITH mine AS (SELECT id, tenant_id FROM broker.broker WHERE broker_number = 'V1000'),
            other AS (SELECT id FROM broker.broker WHERE broker_number = 'V2000'),
            company AS (SELECT co.id FROM broker.company co, mine WHERE co.tenant_id = mine.tenant_id AND co.vu_number = '9999'),
            customers AS (
              INSERT INTO broker.customer (tenant_id, broker_id, person_type, last_name, external_key)
              SELECT mine.tenant_id, b.id, 'natuerlich', 'Race', 'race:' || b.id
                FROM mine, (SELECT id FROM mine UNION ALL SELECT id FROM other) b RETURNING id, broker_id),
            taken AS (
              -- written by another broker's import after this one's contractsPrepared
              INSERT INTO broker.contract (tenant_id, broker_id, customer_id, company_id, line_of_business,
                                           policy_number, status)
              SELECT mine.tenant_id, other.id, c.id, company.id, '040', 'RACE-1', 'aktiv'
                FROM mine, other, company, customers c WHERE c.broker_id = other.id),
            process AS (
              INSERT INTO "import".import_process (tenant_id, broker_id, requested_by, file_type, status,
                failure_reason, file_name, file_size, file_sha256, storage_key)
              SELECT tenant_id, id, 'test', 'CSV', 'failed', 'held here by the test', 'k.csv', 1, repeat('0', 64), 'k'
                FROM mine RETURNING id)
       INSERT INTO "import".merged_contract (process_id, seq, line, customer_key, vu_number, policy_number,
                                             line_of_business, status, currency, customer_id, company_id)
       SELECT process.id, seq, line, 'csv:race', '9999', policy, '040', 'aktiv', 'EUR', c.id, company.id
         FROM process, company, mine, customers c,
              (VALUES (0, 2, 'RACE-1'), (1, 3, 'RACE-2')) AS accepted(seq, line, policy)
        WHERE c.broker_id = mine.id
       RETURNING process_id`,
    );
    const id = rows[0].process_id;
    const issues = async () =>
      (
        await db.query<{ stage: string; line: number; message: string }>(
          'SELECT stage, line, message FROM "import".import_issue WHERE process_id = $1 ORDER BY id',
          [id],
        )
      ).rows;
    await worker.get(ContractsWriteStage).run({ id } as ImportProcessRecord);
    expect(await issues()).toEqual([
      {
        stage: 'contractsFinalized',
        line: 2,
        message: 'Contract RACE-1 of insurer 9999 is held by another broker',
      },
    ]);
    const { rows: owners } = await db.query(
      `SELECT k.policy_number, b.broker_number FROM broker.contract k JOIN broker.broker b ON b.id = k.broker_id
        WHERE k.policy_number LIKE 'RACE-%' ORDER BY 1`,
    );
    expect(owners).toEqual([
      { policy_number: 'RACE-1', broker_number: 'V2000' },
      { policy_number: 'RACE-2', broker_number: 'V1000' },
    ]);
    expect(await countsOf(id)).toMatchObject({ contractsCreated: 1, contractsWritten: 1 });
    // Run again (its status change lost): the same one issue, not two.
    await worker.get(ContractsWriteStage).run({ id } as ImportProcessRecord);
    expect(await issues()).toHaveLength(1);
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
    await statusReaches(id, 'processed');
    expect(await history(id)).toEqual(THROUGH_PROCESSED);
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
    'imports the real GDV sample file to processed, and a second import of it duplicates nothing',
    async () => {
      const sample = readFileSync(GDV_SAMPLE);
      const first = await recordWithoutEnqueueing(sample, { fileType: 'GDV', vuNumbers: ['9999'] });
      await statusReaches(first, 'processed');
      expect(await history(first)).toEqual(THROUGH_PROCESSED);
      const firstCounts = await countsOf(first);
      // 14 policyholder records of 10 insurer customers; 24 contact entries (telephone, e-mail ...) among them.
      expect(firstCounts).toMatchObject({
        customersRead: 14,
        contractsRead: 14,
        contractsValid: 14,
        customersParsed: 10,
        customerRecordsMerged: 4,
        customersCreated: 10,
        addressesWritten: 10,
        contactsAdded: 24,
        contractsCreated: 14,
        contractsWritten: 14,
      });
      const afterFirst = await inventoryOf('V1000', '%:9999:%');
      expect(afterFirst.contracts).toHaveLength(14);
      // Each kind of contact entry a customer has got exactly one standard entry (the first new one of its kind).
      const standards = await db.query<{ kinds: number; wrong: number }>(
        `SELECT count(*)::int AS kinds, count(*) FILTER (WHERE standards <> 1)::int AS wrong
           FROM (SELECT k.customer_id, k.contact_type, count(*) FILTER (WHERE k.is_standard) AS standards
                   FROM broker.contact k JOIN broker.customer c ON c.id = k.customer_id
                  WHERE c.external_key LIKE '%:9999:%' GROUP BY k.customer_id, k.contact_type) kinds`,
      );
      expect(standards.rows[0]?.kinds).toBeGreaterThan(10);
      expect(standards.rows[0]?.wrong).toBe(0);
      expect(afterFirst.customers).toHaveLength(10);
      expect(await amountOfRecords(first)).toBe(14);

      const second = await recordWithoutEnqueueing(sample, { fileType: 'GDV', vuNumbers: ['9999'] });
      await statusReaches(second, 'processed');
      expect(await countsOf(second)).toMatchObject({
        customersMatched: 10,
        customersNew: 0,
        customersCreated: 0,
        contactsAdded: 0,
        contractsMatched: 14,
        contractsCreated: 0,
        contractsUpdated: 14,
      });
      expect(await inventoryOf('V1000', '%:9999:%')).toEqual(afterFirst);
      expect(await amountOfRecords(second)).toBe(14);
    },
  );

  describeWithSample('fails a GDV file none of whose contracts belong to the chosen companies', async () => {
    const id = await recordWithoutEnqueueing(readFileSync(GDV_SAMPLE), {
      fileType: 'GDV',
      vuNumbers: ['5512'],
    });
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
    await statusReaches(id, 'processed');
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
    expect((await inventoryOf('V1000', 'csv:1')).contracts).toEqual([
      { policy_number: 'PH-7', vu_number: '9999', line_of_business: '040', net_premium_cents: '1200' },
    ]);
  });

  it('rejects a contract another broker holds, with its customer, and one whose customer cannot be written, keeping the rest', async () => {
    const held = await recordWithoutEnqueueing(
      Buffer.from(
        'kundennummer;nachname;vu_nummer;sparte;vertragsnummer\n7;Held;9999;040;PH-HELD\n8;Held;9999;040;PH-HELD-2\n',
      ),
      { broker: 'V1001' },
    );
    await statusReaches(held, 'processed');
    const gdv = await writeGdvFile(async (writer) => {
      await writer.writeCustomer(gdvCustomer({ policyNumber: 'PH-HELD', name1: 'Anders' }));
      await writer.writeContract(gdvContract({ policyNumber: 'PH-HELD' }));
      await writer.writeCustomer(
        gdvCustomer({ policyNumber: 'PH-NONAME', name1: '', insurerCustomerNumber: 'K2' }),
      );
      await writer.writeContract(gdvContract({ policyNumber: 'PH-NONAME', insurerCustomerNumber: 'K2' }));
      await writer.writeCustomer(gdvCustomer({ policyNumber: 'PH-OK', insurerCustomerNumber: 'K3' }));
      await writer.writeContract(gdvContract({ policyNumber: 'PH-OK', insurerCustomerNumber: 'K3' }));
      // A customer with one contract held elsewhere and one of its own is imported with its own.
      await writer.writeCustomer(
        gdvCustomer({ policyNumber: 'PH-HELD-2', name1: 'Teils', insurerCustomerNumber: 'K4' }),
      );
      await writer.writeContract(gdvContract({ policyNumber: 'PH-HELD-2', insurerCustomerNumber: 'K4' }));
      await writer.writeCustomer(
        gdvCustomer({ policyNumber: 'PH-OWN-4', name1: 'Teils', insurerCustomerNumber: 'K4' }),
      );
      await writer.writeContract(gdvContract({ policyNumber: 'PH-OWN-4', insurerCustomerNumber: 'K4' }));
    });
    const id = await recordWithoutEnqueueing(gdv, { fileType: 'GDV', vuNumbers: ['9999'], broker: 'V1000' });
    await statusReaches(id, 'processed');
    const { body } = await report(id);
    const { counts, issues } = body as {
      counts: Record<string, number>;
      issues: { stage: string; line: number; message: string }[];
    };
    expect(issues.map(({ stage, line, message }) => ({ stage, line, message }))).toEqual([
      {
        stage: 'customersPrepared',
        line: 8,
        message: 'The customer on line 8 is a natural person without a last name',
      },
      {
        stage: 'customersPrepared',
        line: 4,
        message: 'The customer on line 4 was not imported: each of its contracts is held by another broker',
      },
      {
        stage: 'contractsPrepared',
        line: 6,
        message: 'Contract PH-HELD of insurer 9999 is held by another broker',
      },
      {
        stage: 'contractsPrepared',
        line: 18,
        message: 'Contract PH-HELD-2 of insurer 9999 is held by another broker',
      },
      {
        stage: 'contractsPrepared',
        line: 10,
        message: 'Contract PH-NONAME was not imported because its customer was rejected',
      },
    ]);
    expect(counts).toMatchObject({ customersRejected: 2, contractsUnlinked: 3, contractsWritten: 2 });
    expect(await amountOfRecords(id)).toBe(2);
    // The customer of the held contract is not created for V1000 (it would have no contract there).
    const names = (await inventoryOf('V1000', 'kunde:9999:%')).customers.map(
      (row: { last_name: string }) => row.last_name,
    );
    expect(names).toContain('Teils');
    expect(names).not.toContain('Anders');
    expect((await inventoryOf('V1001', 'csv:7')).contracts).toEqual([
      { policy_number: 'PH-HELD', vu_number: '9999', line_of_business: '040', net_premium_cents: null },
    ]);
    expect(
      (await inventoryOf('V1000', 'kunde:9999:K%')).contracts.map(
        (row: { policy_number: string }) => row.policy_number,
      ),
    ).toEqual(['PH-OK', 'PH-OWN-4']);
  });

  it('archives a processed import once the retention period has passed: the file goes, the process stays', async () => {
    const id = await recordWithoutEnqueueing(CSV_FILE);
    await statusReaches(id, 'processed');
    const stored = await db.query<{ storage_key: string }>(
      'SELECT storage_key FROM "import".import_process WHERE id = $1',
      [id],
    );
    const storageKey = stored.rows[0].storage_key;
    await db.query('BEGIN');
    // Triggers off for this transaction, so updated_at keeps the back-dated time.
    await db.query('SET LOCAL session_replication_role = replica');
    await db.query(
      `UPDATE "import".import_process SET updated_at = now() - interval '91 days', ended_at = now() - interval '91 days'
        WHERE id = $1`,
      [id],
    );
    await db.query('COMMIT');
    await statusReaches(id, 'archived');
    expect(await history(id)).toEqual([...THROUGH_PROCESSED, 'archived']);
    expect(await new DirectoryFileStorage(environment.storageDir).size(storageKey)).toBeUndefined();
    const listed = (await list()).find((process) => process.process_id === id);
    expect(listed).toMatchObject({ status: 'archived', amount_of_records: 2 });
    expect((await report(id)).status).toBe(200);
  });

  it('refuses a transition or failure of a process that is no longer where the caller thinks', async () => {
    const id = await recordWithoutEnqueueing(CSV_FILE);
    await statusReaches(id, 'processed');
    const state = worker.get(ImportProcessStateRepository);
    expect(await state.advance(id, 'uploaded', 'transmitted')).toBe(false);
    await state.fail(id, 'too late');
    expect(await processState(id)).toEqual({ status: 'processed', failure_reason: null });
    expect(await history(id)).toEqual(THROUGH_PROCESSED);
  });

  it('keeps a processed import whose retention period has not passed', async () => {
    const id = await recordWithoutEnqueueing(CSV_FILE);
    await statusReaches(id, 'processed');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await processState(id)).status).toBe('processed');
  });

  it('fails a process whose stored file does not match the upload, with a reason the user can act on', async () => {
    const id = await recordWithoutEnqueueing(CSV_FILE, { storedSha256: 'f'.repeat(64) });
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

  it('fails a CSV file whose header holds a NUL character past the upload check, quoting it storably', async () => {
    const id = await recordWithoutEnqueueing(
      Buffer.from(
        `kundennummer;vu_nummer;sparte;vertragsnummer;${'x'.repeat(5_000)}\u0000\n1;9999;040;A;B\n`,
      ),
    );
    await statusReaches(id, 'failed');
    expect((await processState(id)).failure_reason).toBe(`Unknown columns: ${'x'.repeat(5_000)}\ufffd`);
  });

  it('fails a CSV file with a column named twice, naming it', async () => {
    const id = await recordWithoutEnqueueing(
      Buffer.from('kundennummer;KUNDENNUMMER;vu_nummer;sparte;vertragsnummer;nachname\n1;2;9999;040;A;B\n'),
    );
    await statusReaches(id, 'failed');
    expect((await processState(id)).failure_reason).toBe('Columns named more than once: kundennummer');
  });

  const issuesOf = async (id: string) =>
    ((await report(id)).body as { issues: { stage: string; line: number; message: string }[] }).issues.map(
      ({ stage, line, message }) => ({ stage, line, message }),
    );

  it('rejects a CSV row holding a NUL character as bad data, at once, and imports the other rows', async () => {
    const id = await recordWithoutEnqueueing(
      Buffer.from(
        'kundennummer;vu_nummer;sparte;vertragsnummer;nachname\n9201;9999;040;PR-201;Gut\n9202;9999;040;PR-202;N\u0000ul\n',
      ),
    );
    await statusReaches(id, 'processed');
    expect(await issuesOf(id)).toEqual([
      { stage: 'imported', line: 3, message: 'nachname contains a NUL character (byte 0x00)' },
    ]);
    expect((await inventoryOf('V1000', 'csv:920%')).contracts).toEqual([
      { policy_number: 'PR-201', vu_number: '9999', line_of_business: '040', net_premium_cents: null },
    ]);
  });

  it('rejects a GDV record holding a NUL byte and a line of every byte value as bad data, importing the rest', async () => {
    const gdv = await writeGdvFile(async (writer) => {
      await writer.writeCustomer(gdvCustomer({ policyNumber: 'PH-NUL-A', insurerCustomerNumber: 'N1' }));
      await writer.writeContract(gdvContract({ policyNumber: 'PH-NUL-A', insurerCustomerNumber: 'N1' }));
      await writer.writeCustomer(
        gdvCustomer({ policyNumber: 'PH-NUL-B', name1: 'Nullmann', insurerCustomerNumber: 'N2' }),
      );
      await writer.writeContract(gdvContract({ policyNumber: 'PH-NUL-B', insurerCustomerNumber: 'N2' }));
    });
    const nul = gdv.indexOf('Nullmann') + 2;
    gdv[nul] = 0;
    const lineOf = (offset: number) => gdv.subarray(0, offset).toString('latin1').split('\n').length;
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
    const id = await recordWithoutEnqueueing(Buffer.concat([gdv, everyByte]), {
      fileType: 'GDV',
      vuNumbers: ['9999'],
    });
    await statusReaches(id, 'processed');
    const everyByteLine = lineOf(gdv.length);
    expect(await issuesOf(id)).toEqual([
      {
        stage: 'imported',
        line: everyByteLine + 1,
        message: expect.stringMatching(/^the file mixes encodings: /),
      },
      {
        stage: 'imported',
        line: lineOf(nul),
        message:
          'The customer record holds a NUL character (byte 0x00), which cannot be stored; it is not imported',
      },
      {
        stage: 'imported',
        line: everyByteLine,
        message: 'line starts with "\ufffd\u0001\u0002\u0003", not a 4-digit Satzart',
      },
      {
        stage: 'imported',
        line: everyByteLine + 1,
        message: 'line starts with "\u000b\u000c\r\u000e", not a 4-digit Satzart',
      },
      {
        stage: 'validated',
        line: expect.any(Number),
        message: 'Contract PH-NUL-B names a customer that the file does not contain',
      },
    ]);
    expect(
      (await inventoryOf('V1000', 'kunde:9999:N%')).contracts.map(
        (row: { policy_number: string }) => row.policy_number,
      ),
    ).toEqual(['PH-NUL-A']);
  });

  it('fails a CSV file none of whose rows can be read, keeping why each row was rejected', async () => {
    const id = await recordWithoutEnqueueing(
      Buffer.from(
        'kundennummer;vu_nummer;sparte;vertragsnummer;nachname;geburtsdatum\n' +
          '1;9999;040;A-1;Muster;30.02.2026\n' +
          '2;9999;040;A-2;Muster;;extra\n' +
          '3;9999;040;A-3;Muster\n' +
          '4;9999;040;A-4;"Muster;\n',
      ),
    );
    await statusReaches(id, 'failed');
    expect((await processState(id)).failure_reason).toBe(
      'The file contains no customers or contracts that could be read (4 rejected; the report says why)',
    );
    expect(await issuesOf(id)).toEqual([
      { stage: 'imported', line: 2, message: 'geburtsdatum "30.02.2026" is not a calendar date' },
      { stage: 'imported', line: 3, message: 'Invalid Record Length: columns length is 6, got 7' },
      { stage: 'imported', line: 4, message: 'Invalid Record Length: columns length is 6, got 5' },
      { stage: 'imported', line: 5, message: 'A quote opened on this line is never closed' },
    ]);
  });

  it('fails a CSV file at a record too long to read on, keeping the issues found before it', async () => {
    const id = await recordWithoutEnqueueing(
      Buffer.from(
        'kundennummer;vu_nummer;sparte;vertragsnummer;nachname;geburtsdatum\n' +
          '1;9999;040;A-1;Muster;30.02.2026\n' +
          `2;9999;040;A-2;${'x'.repeat(100_000)};\n` +
          '3;9999;040;A-3;Muster;\n',
      ),
    );
    await statusReaches(id, 'failed');
    expect((await processState(id)).failure_reason).toBe(
      'Line 3 holds a record longer than 65536 bytes (an unterminated quote?); the file cannot be read past it',
    );
    expect(await issuesOf(id)).toEqual([
      { stage: 'imported', line: 2, message: 'geburtsdatum "30.02.2026" is not a calendar date' },
    ]);
  });

  it('fails a CSV file none of whose contracts passes validation, keeping the reason of each', async () => {
    const id = await recordWithoutEnqueueing(
      Buffer.from(
        'kundennummer;vu_nummer;sparte;vertragsnummer;nachname\n1;4711;040;U-1;A\n2;4711;040;U-2;B\n',
      ),
    );
    await statusReaches(id, 'failed');
    expect((await processState(id)).failure_reason).toBe(
      'No contract of the file passed validation (2 rejected; the first: Contract U-1 is of insurer 4711, which is not a known company)',
    );
    expect(await issuesOf(id)).toEqual([
      {
        stage: 'validated',
        line: 2,
        message: 'Contract U-1 is of insurer 4711, which is not a known company',
      },
      {
        stage: 'validated',
        line: 3,
        message: 'Contract U-2 is of insurer 4711, which is not a known company',
      },
    ]);
    // The file's data leaves the work tables with the failure, as with a completed import.
    expect(await workRowsOf(id)).toBe(0);
  });

  it("reports each stage's duration and outcome, failures and the queue depth at the worker's /metrics", async () => {
    const response = await request(worker.getHttpServer() as App)
      .get('/metrics')
      .expect(200);
    const exposition = response.text;
    const count = (pattern: RegExp) => Number(pattern.exec(exposition)?.[1] ?? Number.NaN);
    for (const stage of ['uploaded', 'imported', 'contractsPrepared'])
      expect(
        count(
          new RegExp(`^import_stage_duration_seconds_count\\{[^}]*stage="${stage}"[^}]*\\} (\\d+)$`, 'm'),
        ),
      ).toBeGreaterThan(0);
    // The checksum test above failed a process for good in stage transmitted.
    expect(count(/^import_stage_failures_total\{[^}]*stage="transmitted"[^}]*\} (\d+)$/m)).toBeGreaterThan(0);
    expect(exposition).toContain('# TYPE import_stage_retries_total counter');
    for (const state of ['waiting', 'active', 'delayed', 'failed'])
      expect(
        count(new RegExp(`^import_queue_jobs\\{[^}]*state="${state}"[^}]*\\} (\\d+)$`, 'm')),
      ).toBeGreaterThanOrEqual(0);
    expect(exposition).toContain('# TYPE http_request_duration_seconds histogram');
  });
});
