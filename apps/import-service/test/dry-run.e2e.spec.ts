import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import { type ImportTestEnvironment, waitFor, writeGdvFile, writeGdvPortfolio } from '@broker/testing';
import { Writable } from 'node:stream';
import { type PipelineApps, startPipelineApps } from './pipeline-apps.js';

/** Dry runs up to this size answer at once; larger ones become dry-run processes. */
const SYNC_MAX_BYTES = 64 * 1024;
const THROUGH_PROCESSED = IMPORT_PIPELINE_STATUSES.slice(
  0,
  IMPORT_PIPELINE_STATUSES.indexOf('processed') + 1,
);

interface Report {
  status: string;
  counts: Record<string, number>;
  issues: { stage: string; severity: string; line: number | null; message: string }[];
  issue_count: number;
  failure_reason: string | null;
  dry_run: boolean;
}

async function portfolio(contracts: number, policyPrefix: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeGdvPortfolio(sink, { contracts, policyPrefix });
  return Buffer.concat(chunks);
}

describe('dry runs: POST /api/v1/import?dry_run=true reads and checks a file as the import does, writing nothing', () => {
  let apps: PipelineApps;
  let api: INestApplication;
  let db: Client;
  let environment: ImportTestEnvironment;

  beforeAll(async () => {
    apps = await startPipelineApps({ IMPORT_DRY_RUN_SYNC_MAX_BYTES: String(SYNC_MAX_BYTES) });
    ({ api, db, environment } = apps);
  });

  afterAll(async () => {
    await apps?.close();
  });

  const server = () => api.getHttpServer() as App;
  const authorization = async (broker = 'V1000') =>
    `Bearer ${await environment.authServer.token({ claims: { broker_id: broker } })}`;

  /** Uploads `file` (a GDV file with company 9999, or a CSV file by its name) and expects `status`. */
  async function upload(
    file: Buffer,
    status: number,
    options: { dryRun?: boolean; idempotencyKey?: string; name?: string; broker?: string } = {},
  ) {
    const name = options.name ?? 'bestand.gdv';
    const call = request(server())
      .post(`/api/v1/import${options.dryRun ? '?dry_run=true' : ''}`)
      .set('Authorization', await authorization(options.broker))
      .set(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {});
    const answer = await (name.endsWith('.gdv') ? call.field('companies[0]', '9999') : call)
      .attach('file', file, name)
      .expect(status);
    return answer.body as Report & { process_id?: string };
  }

  async function report(processId: string, broker?: string): Promise<Report> {
    const answer = await request(server())
      .get(`/api/v1/processes/${processId}/report`)
      .set('Authorization', await authorization(broker))
      .expect(200);
    return answer.body as Report;
  }

  const ended = (processId: string, broker?: string) =>
    waitFor(async () => {
      const current = await report(processId, broker);
      return ['processed', 'failed'].includes(current.status) ? current : undefined;
    }, 60_000);

  async function importFile(file: Buffer, name?: string, broker?: string): Promise<Report> {
    const answer = await upload(file, 200, { name, broker });
    return ended(answer.process_id!, broker);
  }

  /** Everything an import writes or lists, counted. */
  async function footprint() {
    const { rows } = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM broker.customer) AS customers,
              (SELECT count(*)::int FROM broker.contract) AS contracts,
              (SELECT count(*)::int FROM broker.address) AS addresses,
              (SELECT count(*)::int FROM broker.contact) AS contacts,
              (SELECT count(*)::int FROM broker.customer_search) AS search_entries,
              (SELECT count(*)::int FROM "import".import_process WHERE NOT dry_run) AS processes,
              (SELECT count(*)::int FROM "import".staged_customer) AS staged`,
    );
    const listed = await request(server())
      .get('/api/v1/list')
      .set('Authorization', await authorization());
    return { ...rows[0], listed: (listed.body as unknown[]).length, stored: storedFiles() };
  }

  /** Every file the storage directory holds, at any depth. */
  function storedFiles(): string[] {
    return readdirSync(environment.storageDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  }

  const comparable = (found: Report) => ({
    counts: found.counts,
    issues: found.issues,
    issue_count: found.issue_count,
    failure_reason: found.failure_reason,
  });

  it('answers a small file at once with the counts and issues of the import, and writes nothing', async () => {
    const file = await writeGdvFile(async (writer) => {
      for (const [index, name] of ['Muster', 'Beispiel', ''].entries()) {
        const policyNumber = `DRY-${index}`;
        await writer.writeCustomer({
          vuNumber: '9999',
          sparte: '040',
          policyNumber,
          broker: '1803012',
          salutationCode: '1',
          name1: name,
          name3: 'Max',
          insurerCustomerNumber: `DK${index}`,
        });
        await writer.writeContract({
          vuNumber: '9999',
          sparte: '040',
          policyNumber,
          broker: '1803012',
          statusCode: '1',
          startDate: '2024-01-01',
          paymentModeCode: '1',
          netPremiumCents: 5_000 + index,
          insurerCustomerNumber: `DK${index}`,
        });
      }
    });
    expect(file.length).toBeLessThanOrEqual(SYNC_MAX_BYTES);
    const before = await footprint();
    const dryRun = await upload(file, 200, { dryRun: true });
    expect(dryRun).toMatchObject({ dry_run: true, status: 'processed', type: 'GDV' });
    expect(dryRun.counts).toMatchObject({ customersCreated: 2, contractsCreated: 2 });
    expect(dryRun.issues).toContainEqual(
      expect.objectContaining({ severity: 'rejected', line: expect.any(Number) as number }),
    );
    expect(await footprint()).toEqual(before);

    // The import of the same file records exactly what the dry run said it would.
    const imported = await importFile(file);
    expect(comparable(dryRun)).toEqual(comparable(imported));
    // Once imported, a dry run says the same file would update, as a second import does.
    const again = await upload(file, 200, { dryRun: true });
    expect(again.counts).toMatchObject({ customersCreated: 0, customersUpdated: 2, contractsCreated: 0 });
    expect(comparable(again)).toEqual(comparable(await importFile(file)));
  });

  it('lists many issues in the order of the file, as the import does', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => `${100 + index};;9999;040;ORD-${index}`);
    const file = Buffer.from(
      `kundennummer;nachname;vu_nummer;sparte;vertragsnummer\n99;Gut;9999;040;ORD-OK\n${rows.join('\n')}\n`,
      'utf8',
    );
    const dryRun = await upload(file, 200, { dryRun: true, name: 'kunden.csv' });
    const lines = dryRun.issues.map((issue) => issue.line ?? 0);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(dryRun.issue_count).toBeGreaterThanOrEqual(30);
    expect(comparable(dryRun)).toEqual(comparable(await importFile(file, 'kunden.csv')));
  });

  it('does not confirm that another broker holds a contract; the import itself reports it', async () => {
    const header = 'kundennummer;nachname;vu_nummer;sparte;vertragsnummer\n';
    const held = Buffer.from(`${header}1;Anders;9999;040;DRY-HELD\n`, 'utf8');
    expect((await importFile(held, 'kunden.csv', 'V1001')).counts).toMatchObject({ contractsCreated: 1 });
    const file = Buffer.from(`${header}1;Anders;9999;040;DRY-HELD\n2;Eigen;9999;040;DRY-OWN\n`, 'utf8');
    const dryRun = await upload(file, 200, { dryRun: true, name: 'kunden.csv' });
    const messages = dryRun.issues.map((issue) => issue.message);
    expect(messages).toEqual([
      'The customer on line 2 would not be imported: none of its contracts can be imported for this broker',
      'Contract DRY-HELD of insurer 9999 cannot be imported for this broker',
    ]);
    const imported = await importFile(file, 'kunden.csv');
    expect(imported.issues.map((issue) => issue.message)).toEqual([
      'The customer on line 2 was not imported: each of its contracts is held by another broker',
      'Contract DRY-HELD of insurer 9999 is held by another broker',
    ]);
  });

  it('says why an import would fail, with the rejected lines, as the import does', async () => {
    const unreadable = Buffer.from(
      'kundennummer;nachname;vu_nummer;sparte;vertragsnummer\n1;;9999;040;\n',
      'utf8',
    );
    const before = await footprint();
    const dryRun = await upload(unreadable, 200, { dryRun: true, name: 'kunden.csv' });
    expect(dryRun.status).toBe('failed');
    expect(dryRun.failure_reason).toMatch(/no customers or contracts that could be read/);
    expect(await footprint()).toEqual(before);
    const imported = await importFile(unreadable, 'kunden.csv');
    expect(imported.status).toBe('failed');
    expect(comparable(dryRun)).toEqual(comparable(imported));
  });

  it('runs a larger file as a dry-run process: 202, read like an import, never listed, nothing written', async () => {
    const file = await portfolio(600, 'ASYNC');
    expect(file.length).toBeGreaterThan(SYNC_MAX_BYTES);
    const before = await footprint();
    const started = await upload(file, 202, { dryRun: true });
    expect(started).toEqual({ process_id: expect.any(String) as string, dry_run: true });
    const dryRun = await ended(started.process_id!);
    expect(dryRun).toMatchObject({ status: 'processed', dry_run: true });
    expect(dryRun.counts).toMatchObject({ customersCreated: 300, contractsCreated: 600 });
    const { rows } = await db.query<{ status: string }>(
      'SELECT status FROM "import".import_status_change WHERE process_id = $1 ORDER BY id',
      [started.process_id!],
    );
    expect(rows.map((row) => row.status)).toEqual(THROUGH_PROCESSED);
    expect(await footprint()).toEqual(before);

    const imported = await importFile(file);
    expect(imported.dry_run).toBe(false);
    expect(comparable(dryRun)).toEqual(comparable(imported));
  }, 90_000);

  it('checks the form as the import does, and takes no Idempotency-Key of an import', async () => {
    const file = await portfolio(2, 'FORM');
    const noCompany = await request(server())
      .post('/api/v1/import?dry_run=true')
      .set('Authorization', await authorization())
      .attach('file', file, 'bestand.gdv')
      .expect(400);
    expect((noCompany.body as { message: string }).message).toBe('no companies set');
    const wrongFlag = await request(server())
      .post('/api/v1/import?dry_run=yes')
      .set('Authorization', await authorization())
      .field('companies[0]', '9999')
      .attach('file', file, 'bestand.gdv')
      .expect(400);
    expect(JSON.stringify(wrongFlag.body)).toContain('dry_run');

    const key = 'dry-run-key-1';
    const imported = await upload(file, 200, { idempotencyKey: key });
    // A mistyped dry_run with the key is refused, never answered with the import's process.
    for (const flag of ['TRUE', 'yes'])
      await request(server())
        .post(`/api/v1/import?dry_run=${flag}`)
        .set('Authorization', await authorization())
        .set('Idempotency-Key', key)
        .field('companies[0]', '9999')
        .attach('file', file, 'bestand.gdv')
        .expect(400);
    const dryRun = await upload(file, 200, { dryRun: true, idempotencyKey: key });
    expect(dryRun).toMatchObject({ dry_run: true, status: 'processed' });
    expect(dryRun).not.toHaveProperty('process_id', imported.process_id);
  });
});
