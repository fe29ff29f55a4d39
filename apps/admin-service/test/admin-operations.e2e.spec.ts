import 'reflect-metadata';
import { Queue } from 'bullmq';
import { IMPORT_PIPELINE_QUEUE, NOTIFICATION_QUEUE, type StageJob } from '@broker/contracts';
import { redisConnection } from '@broker/platform';
import { createTestRedisNamespace, type TestRedisNamespace, waitFor } from '@broker/testing';
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from 'pg';
import { ImportProcessStreams } from '../src/operations/import-process-streams.js';
import { type AdminTestApp, startAdminTestApp } from './admin-test-app.js';

/**
 * The operators' day-to-day operations: import processes (list, detail, retry, cancel), webhook endpoints (enable,
 * redeliver) and the customer outbox (resend). The processes, endpoints and messages are written as the import and
 * broker services write them; the import worker's side of retry and cancel is tested with the pipeline.
 */
describe('administration: imports, webhook endpoints and customer messages', () => {
  let t: AdminTestApp;
  let redis: TestRedisNamespace;
  let queue: Queue<StageJob>;
  let operator: string;
  let demoAdmin: string;

  beforeAll(async () => {
    redis = createTestRedisNamespace();
    t = await startAdminTestApp({
      REDIS_URL: redis.url,
      IMPORT_QUEUE_PREFIX: redis.prefix,
      BROKER_REDIS_PREFIX: `${redis.prefix}:broker:`,
    });
    queue = new Queue<StageJob>(IMPORT_PIPELINE_QUEUE, {
      connection: redisConnection(redis.url),
      prefix: redis.prefix,
    });
    operator = await t.operatorToken();
    demoAdmin = await t.adminToken('demo');
  }, 60_000);
  afterAll(async () => {
    await queue?.close();
    await t?.close();
    await redis?.clear();
  });

  /** A process of broker `broker` of tenant `tenant` that went through `statuses` (the last is its status). */
  async function importProcess(
    statuses: string[],
    options: { broker?: string; tenant?: string; dryRun?: boolean } = {},
  ) {
    const { broker = 'V1000', tenant = 'demo', dryRun = false } = options;
    const status = statuses.at(-1)!;
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO "import".import_process
         (tenant_id, broker_id, requested_by, file_type, status, file_name, file_size, file_sha256, storage_key,
          failure_reason, ended_at, dry_run)
       SELECT b.tenant_id, b.id, 'test', 'GDV', $3, 'bestand.gdv', 100, repeat('a', 64), 'k',
              CASE WHEN $3 = 'failed' THEN 'The import stopped in stage contractsPrepared' END,
              CASE WHEN $3 IN ('failed', 'processed') THEN now() END, $4
         FROM broker.broker b JOIN broker.tenant t ON t.id = b.tenant_id
        WHERE t.code = $1 AND b.broker_number = $2
       RETURNING id`,
      [tenant, broker, status, dryRun],
    );
    for (const reached of statuses)
      await t.db.query('INSERT INTO "import".import_status_change (process_id, status) VALUES ($1, $2)', [
        rows[0].id,
        reached,
      ]);
    return rows[0].id;
  }

  const processes = (path: string, token = demoAdmin) =>
    t.call(token, 'get', `/tenants/demo/import-processes${path}`);

  it('lists the tenant’s processes by status and broker, with progress; another tenant’s are a 404', async () => {
    const failed = await importProcess([
      'uploaded',
      'transmitted',
      'received',
      'imported',
      'validated',
      'failed',
    ]);
    const running = await importProcess(['uploaded', 'transmitted', 'received', 'imported'], {
      broker: 'V2000',
    });
    const nord = await importProcess(['uploaded'], { broker: 'N1', tenant: 'nord' });

    const all = await processes('').expect(200);
    const ids = (all.body as { items: { id: string }[] }).items.map((item) => item.id);
    expect(ids).toEqual(expect.arrayContaining([failed, running]));
    expect(ids).not.toContain(nord);
    const onlyFailed = await processes('?status=failed').expect(200);
    expect(onlyFailed.body).toMatchObject({
      total: 1,
      items: [{ id: failed, broker: 'V1000', status: 'failed' }],
    });
    expect((onlyFailed.body as { items: { progress_percent: number }[] }).items[0].progress_percent).toBe(31);
    const ofBroker = await processes('?broker=V2000').expect(200);
    expect(ofBroker.body).toMatchObject({ total: 1, items: [{ id: running, progress_percent: 23 }] });
    await processes('?broker=UNBEKANNT').expect(200, { total: 0, offset: 0, limit: 50, items: [] });
    await processes('?status=kaputt').expect(400);
    await processes('?from=2026-02-30T00:00:00Z').expect(400);

    const detail = await processes(`/${failed}`).expect(200);
    expect(detail.body).toMatchObject({
      status: 'failed',
      failure_reason: 'The import stopped in stage contractsPrepared',
      retry_from: 'received',
      cancellable: false,
      issue_count: 0,
    });
    expect((detail.body as { history: { status: string }[] }).history.map((change) => change.status)).toEqual(
      ['uploaded', 'transmitted', 'received', 'imported', 'validated', 'failed'],
    );
    await t.call(await t.adminToken('nord'), 'get', `/tenants/demo/import-processes/${failed}`).expect(404);
    await t.call(await t.adminToken('nord'), 'get', `/tenants/nord/import-processes/${failed}`).expect(404);
    await processes('/not-a-uuid').expect(404);
  });

  it('retries a failed process from the stage that failed, once, audited, its stage put on the pipeline queue', async () => {
    const early = await importProcess(['uploaded', 'transmitted', 'failed']);
    const retried = await t
      .call(demoAdmin, 'post', `/tenants/demo/import-processes/${early}/retry`)
      .expect(200);
    expect(retried.body).toMatchObject({
      status: 'transmitted',
      failure_reason: null,
      ended_at: null,
      retry_from: null,
    });
    expect((await queue.getJob(`${early}-transmitted`))?.data).toEqual({
      processId: early,
      from: 'transmitted',
    });
    // A second click finds it no longer failed.
    const again = await t
      .call(demoAdmin, 'post', `/tenants/demo/import-processes/${early}/retry`)
      .expect(409);
    expect(again.body).toMatchObject({
      name: 'Conflict',
      message: 'Only a failed import is retried; this one is transmitted',
    });

    // Failed after its work rows were written: those are gone, so it starts again from reading the file.
    const late = await importProcess([
      'uploaded',
      'transmitted',
      'received',
      'imported',
      'customersParsed',
      'failed',
    ]);
    await t.call(operator, 'post', `/tenants/demo/import-processes/${late}/retry`).expect(200);
    expect((await queue.getJob(`${late}-received`))?.data).toEqual({ processId: late, from: 'received' });
    const { rows } = await t.db.query<{ actor_kind: string; action: string; details: object }>(
      `SELECT actor_kind, action, details FROM broker.audit_event WHERE target = $1`,
      [`import-processes/${late}`],
    );
    expect(rows).toEqual([
      {
        actor_kind: 'operator',
        action: 'retryImportProcess',
        details: { status: 'received', failure_reason: 'The import stopped in stage contractsPrepared' },
      },
    ]);

    const dryRun = await importProcess(['uploaded', 'failed'], { dryRun: true });
    await t.call(demoAdmin, 'post', `/tenants/demo/import-processes/${dryRun}/retry`).expect(409);
    const done = await importProcess(['uploaded', 'processed']);
    await t.call(demoAdmin, 'post', `/tenants/demo/import-processes/${done}/retry`).expect(409);
    await t
      .call(await t.adminToken('nord'), 'post', `/tenants/nord/import-processes/${early}/retry`)
      .expect(404);
  });

  it('asks the worker to cancel a process under way, once; an ended process is not cancelled', async () => {
    const stuck = await importProcess(['uploaded', 'transmitted', 'received', 'imported']);
    const cancelled = await t
      .call(demoAdmin, 'post', `/tenants/demo/import-processes/${stuck}/cancel`)
      .expect(202);
    expect(cancelled.body).toMatchObject({
      status: 'imported',
      cancel_requested_by: 'admin-of-demo',
      cancellable: false,
    });
    expect((await queue.getJob(`${stuck}-imported`))?.data).toEqual({ processId: stuck, from: 'imported' });
    await t.call(demoAdmin, 'post', `/tenants/demo/import-processes/${stuck}/cancel`).expect(409);
    const done = await importProcess(['uploaded', 'processed']);
    await t.call(demoAdmin, 'post', `/tenants/demo/import-processes/${done}/cancel`).expect(409);
  });

  it('enables a disabled webhook endpoint and redelivers its abandoned deliveries, audited', async () => {
    const process = await importProcess(['uploaded', 'processed']);
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO "import".webhook_endpoint
         (tenant_id, broker_id, created_by, url, event_types, secret_ciphertext, failing_since, disabled_at,
          disabled_reason)
       SELECT b.tenant_id, b.id, 'test', 'https://hooks.example.com/in/T0AB1CDEFGHIJKLMN2?token=geheim', '{import.processed}', 'x',
              now() - interval '4 days', now(), 'Deliveries failed for 72 hours without a success'
         FROM broker.broker b WHERE b.broker_number = 'V1000' AND b.tenant_id = (SELECT id FROM broker.tenant WHERE code = 'demo')
       RETURNING id`,
    );
    const endpoint = rows[0].id;
    const deliveries = await t.db.query<{ id: string }>(
      `INSERT INTO "import".webhook_delivery (endpoint_id, process_id, event_type, payload, state, attempts)
       VALUES ($1, $2, 'import.processed', '{}', 'abandoned', 8), ($1, $2, 'import.processed', '{}', 'abandoned', 8)
       RETURNING id::text`,
      [endpoint, process],
    );
    const path = `/tenants/demo/webhook-endpoints/${endpoint}`;

    const failing = await t
      .call(demoAdmin, 'get', '/tenants/demo/webhook-endpoints?state=disabled')
      .expect(200);
    expect(failing.body).toMatchObject({
      total: 1,
      items: [
        {
          id: endpoint,
          broker: 'V1000',
          url: 'https://hooks.example.com/in/…?…',
          abandoned_deliveries: 2,
        },
      ],
    });
    expect(JSON.stringify(failing.body)).not.toMatch(/geheim|T0AB1CDEFGHIJKLMN2/);
    await t.call(demoAdmin, 'post', `${path}/redeliver`, {}).expect(409);
    const enabled = await t.call(demoAdmin, 'post', `${path}/enable`).expect(200);
    expect(enabled.body).toMatchObject({ disabled_at: null, failing_since: null, disabled_reason: null });
    await t.call(demoAdmin, 'post', `${path}/enable`).expect(409);

    const one = await t.call(demoAdmin, 'post', `${path}/redeliver`, { delivery_id: deliveries.rows[0].id });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ redelivered: 1 });
    await t.call(demoAdmin, 'post', `${path}/redeliver`, { delivery_id: deliveries.rows[0].id }).expect(404);
    await t.call(demoAdmin, 'post', `${path}/redeliver`, {}).expect(200, { redelivered: 1 });
    const states = await t.db.query<{ state: string; attempts: number }>(
      'SELECT state, attempts FROM "import".webhook_delivery WHERE endpoint_id = $1 ORDER BY id',
      [endpoint],
    );
    expect(states.rows).toEqual([
      { state: 'pending', attempts: 0 },
      { state: 'pending', attempts: 0 },
    ]);
    const audit = await t.db.query<{ action: string }>(
      'SELECT action FROM broker.audit_event WHERE target = $1 ORDER BY id',
      [`webhook-endpoints/${endpoint}`],
    );
    expect(audit.rows.map((row) => row.action)).toEqual([
      'enableWebhookEndpoint',
      'redeliverWebhookDeliveries',
      'redeliverWebhookDeliveries',
    ]);
    await t
      .call(await t.adminToken('nord'), 'get', `/tenants/nord/webhook-endpoints/${endpoint}`)
      .expect(404);
  });

  it('lists the customer messages with their failure, resends one that can go out again, not one whose link expired', async () => {
    const customer = await t.db.query<{ id: string; tenant_id: string }>(
      `INSERT INTO broker.customer (tenant_id, broker_id, person_type, last_name)
       SELECT b.tenant_id, b.id, 'natuerlich', 'Kundin' FROM broker.broker b
        WHERE b.broker_number = 'V1000' AND b.tenant_id = (SELECT id FROM broker.tenant WHERE code = 'demo')
       RETURNING id::text, tenant_id::text`,
    );
    const { id: customerId, tenant_id: tenantId } = customer.rows[0];
    const messages = await t.db.query<{ id: string }>(
      `INSERT INTO broker.outbox_message (tenant_id, customer_id, kind, channel, recipient, subject, body, status,
                                          attempts, last_error)
       VALUES ($1, $2, 'erstinformation', 'email', 'kundin@example.com', 'Erstinformation', 'Hallo', 'failed', 5,
               '550 mailbox unavailable'),
              ($1, $2, 'passwortlink', 'email', 'kundin@example.com', 'Passwort', 'Link: {{link}}', 'failed', 5,
               '550 mailbox unavailable')
       RETURNING id::text`,
      [tenantId, customerId],
    );
    const [plain, withLink] = messages.rows.map((row) => row.id);
    const listed = await t.call(demoAdmin, 'get', '/tenants/demo/outbox-messages?status=failed').expect(200);
    expect(listed.body).toMatchObject({
      total: 2,
      items: [
        { id: withLink, broker: 'V1000', resendable: false, last_error: '550 mailbox unavailable' },
        { id: plain, resendable: true, channel: 'email', recipient: 'kundin@example.com' },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain('Hallo');
    const resent = await t
      .call(demoAdmin, 'post', `/tenants/demo/outbox-messages/${plain}/resend`)
      .expect(200);
    expect(resent.body).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
    // Handed to the broker service's delivery at once, keyed as it keys its jobs.
    const notifications = new Queue(NOTIFICATION_QUEUE, {
      connection: redisConnection(redis.url),
      prefix: `${redis.prefix}:broker:queue`,
    });
    try {
      expect((await notifications.getJob(`message-${plain}`))?.data).toEqual({ messageId: plain });
    } finally {
      await notifications.close();
    }
    // A second click finds it waiting for its first attempt.
    await t.call(demoAdmin, 'post', `/tenants/demo/outbox-messages/${plain}/resend`).expect(409);
    await t.call(demoAdmin, 'post', `/tenants/demo/outbox-messages/${withLink}/resend`).expect(409);
    await t
      .call(await t.adminToken('nord'), 'post', `/tenants/nord/outbox-messages/${plain}/resend`)
      .expect(404);
    await t.call(demoAdmin, 'post', '/tenants/demo/outbox-messages/abc/resend').expect(404);
  });

  /** The events of a stream of the admin API at `path` (below /admin/v1), read one after the other. */
  async function openStream(path: string, token = demoAdmin) {
    const server = t.app.getHttpServer() as import('node:http').Server;
    if (!server.listening) await t.app.listen(0, '127.0.0.1');
    const { port } = server.address() as import('node:net').AddressInfo;
    const url = `http://127.0.0.1:${port}/admin/v1${path}`;
    const answer = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    /** The next event (of any name), its name and data. */
    const nextEvent = async () => {
      while (!received.includes('\n\n') || received.startsWith(':')) {
        if (received.startsWith(':')) received = received.slice(received.indexOf('\n\n') + 2);
        else received += (await reader.read()).value ?? '';
      }
      const event = received.slice(0, received.indexOf('\n\n'));
      received = received.slice(event.length + 2);
      const [name, data] = event.split('\n').map((line) => line.slice(line.indexOf(': ') + 2));
      return { name, data: JSON.parse(data) as Record<string, unknown> };
    };
    return { url, answer, reader, nextEvent };
  }

  it('streams a process as it moves (followImportProcess) until it ends', async () => {
    const id = await importProcess(['uploaded', 'transmitted']);
    const {
      url,
      answer,
      reader,
      nextEvent: next,
    } = await openStream(`/tenants/demo/import-processes/${id}/events`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers.get('x-accel-buffering')).toBe('no');
    const nextEvent = async (name: string) => {
      const event = await next();
      expect(event.name).toBe(name);
      return event.data;
    };
    expect(await nextEvent('process')).toMatchObject({ id, status: 'transmitted', progress_percent: 8 });
    await t.db.query(`UPDATE "import".import_process SET status = 'received' WHERE id = $1`, [id]);
    expect(await nextEvent('process')).toMatchObject({ status: 'received', progress_percent: 15 });
    await t.db.query(
      `UPDATE "import".import_process SET status = 'processed', ended_at = now() WHERE id = $1`,
      [id],
    );
    expect(await nextEvent('process')).toMatchObject({ status: 'processed', progress_percent: 100 });
    await nextEvent('end');
    expect((await reader.read()).done).toBe(true);

    const other = await fetch(url, { headers: { Authorization: `Bearer ${await t.adminToken('nord')}` } });
    expect(other.status).toBe(404);
    const nordPath = url.replace('/tenants/demo/', '/tenants/nord/');
    expect(
      (await fetch(nordPath, { headers: { Authorization: `Bearer ${await t.adminToken('nord')}` } })).status,
    ).toBe(404);
  }, 30_000);

  it('streams the processes a list shows and the processes started since (followImportProcesses)', async () => {
    const shown = await importProcess(['uploaded', 'transmitted']);
    const nords = await importProcess(['uploaded'], { tenant: 'nord', broker: 'N1' });
    const { answer, reader, nextEvent } = await openStream(
      `/tenants/demo/import-processes/events?ids=${shown},${nords}`,
    );
    expect(answer.status).toBe(200);
    // Another tenant's process is not followed, whatever ids a list names.
    expect(await nextEvent()).toMatchObject({ name: 'process', data: { id: shown, status: 'transmitted' } });
    await t.db.query(`UPDATE "import".import_process SET status = 'received' WHERE id = $1`, [shown]);
    expect(await nextEvent()).toMatchObject({ name: 'process', data: { id: shown, progress_percent: 15 } });
    await importProcess(['uploaded'], { tenant: 'nord', broker: 'N1' });
    const started = await importProcess(['uploaded'], { broker: 'V1001' });
    expect(await nextEvent()).toMatchObject({ name: 'started', data: { id: started, broker: 'V1001' } });
    await t.db.query(
      `UPDATE "import".import_process SET status = 'processed', ended_at = now() WHERE id = $1`,
      [shown],
    );
    expect(await nextEvent()).toMatchObject({ name: 'process', data: { id: shown, status: 'processed' } });
    await reader.cancel();

    await processes('/events?ids=abc').expect(400);
    await processes(`/events?ids=${Array.from({ length: 101 }, () => shown).join(',')}`).expect(400);
    await t
      .call(await t.adminToken('nord'), 'get', `/tenants/demo/import-processes/events?ids=${shown}`)
      .expect(404);
  }, 30_000);

  it('opens a stream with nothing to tell at once, and forgets one whose client left before it started', async () => {
    const opening = Date.now();
    const quiet = await openStream('/tenants/demo/import-processes/events');
    expect(quiet.answer.status).toBe(200);
    // Its headers come at once, not with the first keep-alive line 15 s later.
    expect(Date.now() - opening).toBeLessThan(5_000);
    await quiet.reader.cancel();

    const streams = t.app.get(ImportProcessStreams);
    await waitFor(() => (streams.openCount === 0 ? true : undefined), 5_000);
    const { port } = (t.app.getHttpServer() as http.Server).address() as import('node:net').AddressInfo;
    // The stream's first reading waits for the tenant's row, locked by this test, while its client leaves.
    const locker = new Client({ connectionString: t.database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE broker.tenant IN ACCESS EXCLUSIVE MODE');
      const leaving = http.get({
        host: '127.0.0.1',
        port,
        path: '/admin/v1/tenants/demo/import-processes/events',
        headers: { Authorization: `Bearer ${demoAdmin}` },
      });
      leaving.on('error', () => undefined);
      await delay(300);
      leaving.destroy();
      await delay(100);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    await delay(1_000);
    expect(streams.openCount).toBe(0);
  }, 30_000);
});
