import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import { findFreePort } from '@broker/local-services';
import { type ImportTestEnvironment, undocumentedCallback, waitFor } from '@broker/testing';
import { type PipelineApps, startPipelineApps } from './pipeline-apps.js';

const WORKER_ENTRY = path.resolve(__dirname, '../dist/worker.js');
const THROUGH_PROCESSED = IMPORT_PIPELINE_STATUSES.slice(
  0,
  IMPORT_PIPELINE_STATUSES.indexOf('processed') + 1,
);
const CSV_FILE = Buffer.from(
  'kundennummer;nachname;vu_nummer;sparte;vertragsnummer\n1;Haken;9999;040;WH-1\n',
  'utf8',
);

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  answered: number;
}

interface Payload {
  type: string;
  timestamp: string;
  data: { process_id: string; status: string; broker: string };
}

/** A webhook receiver: records every request; a path can be told to fail or to hang a number of times first. */
class Receiver {
  readonly received: Received[] = [];
  private readonly failures = new Map<string, number>();
  private readonly hangs = new Map<string, number>();
  private server!: http.Server;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((incoming, response) => {
      let body = '';
      incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
      incoming.on('end', () => {
        const route = incoming.url ?? '/';
        const hang = this.hangs.get(route) ?? 0;
        if (hang > 0) {
          this.hangs.set(route, hang - 1);
          this.received.push({
            path: route,
            headers: incoming.headers as Record<string, string>,
            body,
            answered: 0,
          });
          return;
        }
        const failing = this.failures.get(route) ?? 0;
        this.failures.set(route, Math.max(0, failing - 1));
        const status = failing > 0 ? 500 : 204;
        this.received.push({
          path: route,
          headers: incoming.headers as Record<string, string>,
          body,
          answered: status,
        });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  failNext(route: string, times: number): void {
    this.failures.set(route, times);
  }

  hangNext(route: string, times: number): void {
    this.hangs.set(route, times);
  }

  /** Requests to `route` answered 2xx, verified with `secret` (throws when one does not verify). */
  accepted(route: string, secret: string): Payload[] {
    return this.received
      .filter((entry) => entry.path === route && entry.answered >= 200 && entry.answered < 300)
      .map((entry) => new Webhook(secret).verify(entry.body, entry.headers) as Payload);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhooks of import processes (Standard Webhooks 1.0, outbox, BullMQ delivery)', () => {
  let apps: PipelineApps;
  let api: INestApplication;
  let db: Client;
  let environment: ImportTestEnvironment;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    apps = await startPipelineApps({
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      IMPORT_WEBHOOK_ALLOW_HTTP: 'true',
      IMPORT_WEBHOOK_RETRY_BASE_MS: '100',
      IMPORT_WEBHOOK_RETRY_MAX_MS: '400',
      IMPORT_WEBHOOK_DISPATCH_MS: '100',
    });
    ({ api, db, environment } = apps);
  });

  afterAll(async () => {
    await apps?.close();
    await receiver.close();
  });

  const server = () => api.getHttpServer() as App;
  const bearer = async (broker = 'V1000') =>
    `Bearer ${await environment.authServer.token({ claims: { broker_id: broker } })}`;

  async function register(
    route: string,
    eventTypes = ['import.status_changed', 'import.processed'],
    broker?: string,
  ) {
    const answer = await request(server())
      .post('/api/v1/webhooks')
      .set('Authorization', await bearer(broker))
      .send({ url: `${receiver.url}${route}`, event_types: eventTypes })
      .expect(201);
    return answer.body as { id: string; secret: string; url: string };
  }

  async function importCsv(broker = 'V1000'): Promise<string> {
    const answer = await request(server())
      .post('/api/v1/import')
      .set('Authorization', await bearer(broker))
      .attach('file', CSV_FILE, 'kunden.csv')
      .expect(200);
    return (answer.body as { process_id: string }).process_id;
  }

  const statusesOf = (payloads: Payload[], processId: string) =>
    payloads
      .filter((payload) => payload.data.process_id === processId && payload.type === 'import.status_changed')
      .map((payload) => payload.data.status);

  it('registers an endpoint with its secret shown once and stored encrypted; lists it without; refuses inward URLs', async () => {
    const endpoint = await register('/registered');
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await request(server())
      .get('/api/v1/webhooks')
      .set('Authorization', await bearer())
      .expect(200);
    expect(listed.body).toContainEqual(expect.objectContaining({ id: endpoint.id, disabled: null }));
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const { rows } = await db.query<{ secret_ciphertext: string }>(
      'SELECT secret_ciphertext FROM "import".webhook_endpoint WHERE id = $1',
      [endpoint.id],
    );
    expect(rows[0].secret_ciphertext).not.toContain(endpoint.secret.slice(6, 20));
    for (const url of [
      'http://[::1]:8080/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/hook',
      'http://127.0.0.2/hook',
      'ftp://example.com/hook',
      'http://user:pw@example.com/hook',
    ]) {
      const refused = await request(server())
        .post('/api/v1/webhooks')
        .set('Authorization', await bearer())
        .send({ url, event_types: ['import.processed'] });
      expect({ url, status: refused.status }).toEqual({ url, status: 400 });
    }
    await request(server())
      .post('/api/v1/webhooks')
      .set('Authorization', await bearer())
      .send({ url: `${receiver.url}/x`, event_types: ['import.everything'] })
      .expect(400);
    // Another broker sees none of it.
    await request(server())
      .get(`/api/v1/webhooks/${endpoint.id}/attempts`)
      .set('Authorization', await bearer('V1001'))
      .expect(404);
    await request(server())
      .delete(`/api/v1/webhooks/${endpoint.id}`)
      .set('Authorization', await bearer('V1001'))
      .expect(404);
    await request(server())
      .delete(`/api/v1/webhooks/${endpoint.id}`)
      .set('Authorization', await bearer())
      .expect(204);
  });

  it('delivers every status of an import in order, signed, to endpoints of the broker and above it', async () => {
    const own = await register('/own');
    const processId = await importCsv();
    await waitFor(
      () =>
        receiver.accepted('/own', own.secret).some((p) => p.type === 'import.processed') ? true : undefined,
      30_000,
    );
    const payloads = receiver.accepted('/own', own.secret);
    expect(statusesOf(payloads, processId)).toEqual(THROUGH_PROCESSED);
    // Each delivery is what the document's callback of createWebhookEndpoint describes; a changed one is not.
    const delivered = receiver.received.filter((entry) => entry.path === '/own');
    const described = (delivery: { headers: Record<string, string | string[] | undefined>; body: string }) =>
      undocumentedCallback(
        api.getHttpServer() as object,
        '/api/v1/openapi.json',
        'createWebhookEndpoint',
        'importEvent',
        delivery,
      );
    for (const delivery of delivered) expect(await described(delivery)).toBeUndefined();
    const first = delivered[0];
    expect(
      await described({ ...first, body: first.body.replace(/"status":"[a-z]+"/, '"status":"geraten"') }),
    ).toMatch(
      /the body does not match its schema: data\/data\/status must be equal to one of the allowed values/,
    );
    expect(
      await described({ ...first, headers: { ...first.headers, 'webhook-timestamp': 'gestern' } }),
    ).toMatch(/the header webhook-timestamp is missing or not of its schema/);
    expect(payloads.filter((payload) => payload.type === 'import.processed')).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ process_id: processId, status: 'processed' }),
      }),
    ]);
    const log = await request(server())
      .get(`/api/v1/webhooks/${own.id}/attempts`)
      .set('Authorization', await bearer())
      .expect(200);
    expect((log.body as { status_code: number }[]).every((attempt) => attempt.status_code === 204)).toBe(
      true,
    );
  }, 60_000);

  it('retries a failing receiver until it accepts: after three failures the event arrives exactly once more', async () => {
    const flaky = await register('/flaky');
    receiver.failNext('/flaky', 3);
    const processId = await importCsv();
    await waitFor(
      () =>
        receiver.accepted('/flaky', flaky.secret).some((p) => p.type === 'import.processed')
          ? true
          : undefined,
      30_000,
    );
    const requests = receiver.received.filter((entry) => entry.path === '/flaky');
    const firstId = requests[0].headers['webhook-id'];
    expect(
      requests.filter((entry) => entry.headers['webhook-id'] === firstId).map((entry) => entry.answered),
    ).toEqual([500, 500, 500, 204]);
    const accepted = requests
      .filter((entry) => entry.answered === 204)
      .map((entry) => entry.headers['webhook-id']);
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(statusesOf(receiver.accepted('/flaky', flaky.secret), processId)).toEqual(THROUGH_PROCESSED);
  }, 60_000);

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const endpoint = await register('/rotated', ['import.processed']);
    const rotated = await request(server())
      .post(`/api/v1/webhooks/${endpoint.id}/secret`)
      .set('Authorization', await bearer())
      .expect(200);
    const secret = (rotated.body as { secret: string }).secret;
    expect(secret).not.toBe(endpoint.secret);
    const processId = await importCsv();
    await waitFor(() => (receiver.accepted('/rotated', secret).length > 0 ? true : undefined), 30_000);
    const [delivery] = receiver.received.filter((entry) => entry.path === '/rotated');
    expect(delivery.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(receiver.accepted('/rotated', endpoint.secret)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ process_id: processId }) }),
    ]);
  }, 60_000);

  it('disables an endpoint whose deliveries failed for three days, and says so', async () => {
    const endpoint = await register('/dead', ['import.processed']);
    receiver.failNext('/dead', 1_000);
    await db.query(
      `UPDATE "import".webhook_endpoint SET failing_since = now() - interval '73 hours' WHERE id = $1`,
      [endpoint.id],
    );
    await importCsv();
    const disabled = await waitFor(async () => {
      const listed = await request(server())
        .get('/api/v1/webhooks')
        .set('Authorization', await bearer())
        .expect(200);
      const found = (listed.body as { id: string; disabled: { at: number; reason: string } | null }[]).find(
        (entry) => entry.id === endpoint.id,
      );
      return found?.disabled ?? undefined;
    }, 30_000);
    expect(disabled.reason).toMatch(/failed for 72 hours/);
    const { rows } = await db.query<{ state: string }>(
      'SELECT DISTINCT state FROM "import".webhook_delivery WHERE endpoint_id = $1',
      [endpoint.id],
    );
    expect(rows.map((row) => row.state)).toEqual(['abandoned']);
    // The worker's /metrics counts it among the disabled endpoints (what the alert rule for failing webhooks reads).
    const { rows: states } = await db.query<{ failing: number; disabled: number }>(
      `SELECT count(*) FILTER (WHERE failing_since IS NOT NULL AND disabled_at IS NULL)::int AS failing,
              count(*) FILTER (WHERE disabled_at IS NOT NULL)::int AS disabled FROM "import".webhook_endpoint`,
    );
    expect(states[0].disabled).toBeGreaterThanOrEqual(1);
    const metrics = await request(apps.worker.getHttpServer() as App)
      .get('/metrics')
      .expect(200);
    for (const state of ['failing', 'disabled'] as const)
      expect(metrics.text).toMatch(
        new RegExp(`^webhook_endpoints\\{[^}]*state="${state}"[^}]*\\} ${states[0][state]}$`, 'm'),
      );
  }, 60_000);

  it('loses no delivery when the worker is killed between the status change and the delivery', async () => {
    if (!existsSync(WORKER_ENTRY)) throw new Error(`${WORKER_ENTRY} is missing: run pnpm build first`);
    await apps.worker.close();
    const endpoint = await register('/killed');
    receiver.hangNext('/killed', 1);
    const env = { ...process.env, ...apps.env, LOG_LEVEL: 'silent' };
    const start = async (): Promise<ChildProcess> =>
      spawn(process.execPath, [WORKER_ENTRY], {
        env: { ...env, PORT: String(await findFreePort()) },
        stdio: 'ignore',
      });
    const first = await start();
    const processId = await importCsv();
    // The worker sends the first delivery and is killed while the receiver holds it unanswered.
    await waitFor(
      () => (receiver.received.some((entry) => entry.path === '/killed') ? true : undefined),
      30_000,
    );
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    const second = await start();
    try {
      await waitFor(
        () =>
          statusesOf(receiver.accepted('/killed', endpoint.secret), processId).includes('processed')
            ? true
            : undefined,
        60_000,
      );
      expect(statusesOf(receiver.accepted('/killed', endpoint.secret), processId)).toEqual(THROUGH_PROCESSED);
    } finally {
      const stopped = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGKILL');
      await stopped;
    }
  }, 90_000);
});
