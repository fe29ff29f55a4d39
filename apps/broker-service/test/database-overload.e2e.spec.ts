import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import {
  expectOverloadRefusal,
  holdDatabasePool,
  OVERLOAD_TEST_POOL_WAIT_MS,
  settled,
  waitFor,
} from '@broker/testing';
import { SEARCH_CONNECTIONS } from '../src/employee/search/search-connections.js';
import { FIXTURE_API_CLIENTS, svcOtpHeaders } from './employee-fixture.js';
import { BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { answerParts, asBuffer, multipartBody, multipartType, part } from './multipart.js';

const SEARCH = '/kunden/_search?q=Mustermann';

describe('broker-service under overload (no search place within SEARCH_QUEUE_WAIT_MS, no database connection within DB_POOL_WAIT_MS)', () => {
  let service: EmployeeTestService;
  const kunde = () => `/kunden/${service.customers.v1000Customer}`;
  const get = (path: string) => service.call('get', service.employeePath(path));

  beforeAll(async () => {
    service = await startEmployeeTestService({
      DB_POOL_WAIT_MS: OVERLOAD_TEST_POOL_WAIT_MS,
      SEARCH_QUEUE_LENGTH: '1',
      SEARCH_QUEUE_WAIT_MS: '2000',
    });
  });
  afterAll(() => service?.close());

  describe('every search place taken: its searches wait on a lock of the search index', () => {
    let locker: Client;
    let blocked: Promise<request.Response>[];

    beforeAll(async () => {
      locker = new Client({ connectionString: service.database.url });
      await locker.connect();
      await locker.query('BEGIN');
      // Every search reads the search index on the search pool; getKunde does not.
      await locker.query('LOCK TABLE broker.customer_search IN ACCESS EXCLUSIVE MODE');
      const { rows } = await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const connections = service.app.get<number>(SEARCH_CONNECTIONS);
      // Started now (then), not when awaited.
      blocked = Array.from({ length: connections }, () => get(SEARCH).then((response) => response));
      await waitFor(async () => {
        const waiting = await service.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
          [rows[0].pid],
        );
        return waiting.rows[0].count === connections || undefined;
      });
    });

    afterAll(async () => {
      await locker?.query('ROLLBACK');
      await locker?.end();
    });

    it('refuses one more search with 503, Retry-After and Meldungen once it has waited for a place', async () => {
      expectOverloadRefusal(await get(SEARCH), 'meldungen');
    });

    it('still answers getKunde, which uses the service pool', async () => {
      await get(kunde()).expect(200);
    });

    it('answers a multi-call part that found no place with its own 503, its siblings as usual', async () => {
      const response = await asBuffer(
        request(service.app.getHttpServer() as App)
          .post(BASE)
          .set(svcOtpHeaders(FIXTURE_API_CLIENTS.main))
          .set('Content-Type', multipartType())
          .send(
            multipartBody([
              part('<part-1>', 'GET', `/01_01${SEARCH}`),
              part('<part-2>', 'GET', `/01_01${kunde()}`),
            ]),
          ),
      ).expect(200);
      const [search, customer] = answerParts(response.headers['content-type'], response.body as Buffer);
      expectOverloadRefusal({ ...search, body: search.json() }, 'meldungen');
      expect(customer.status).toBe(200);
    });

    it('refuses a search beyond SEARCH_QUEUE_LENGTH at once, and serves the waiting one when a place frees', async () => {
      const waiting = get(SEARCH).then((response) => response);
      // The queue holds one search: this one is refused only while the first waits in it.
      expectOverloadRefusal(await get(SEARCH), 'meldungen');
      expect(await settled(waiting)).toBe(false);

      await locker.query('COMMIT');
      for (const response of await Promise.all([...blocked, waiting])) expect(response.status).toBe(200);
    });
  });

  it('refuses a request with 503 and Retry-After in the area shape while the service pool is held, and counts it', async () => {
    const refusals = async () =>
      (
        await request(service.app.getHttpServer() as App)
          .get('/metrics')
          .expect(200)
      ).text.match(/^http_overload_refusals_total\{service="broker-service"\} (\d+)$/m)?.[1];
    const before = Number(await refusals());
    const held = await holdDatabasePool(service.app);
    try {
      expectOverloadRefusal(await get(kunde()), 'meldungen');
    } finally {
      held.release();
    }
    await get(kunde()).expect(200);
    expect(Number(await refusals())).toBe(before + 1);
  });
});

describe('a search whose client went away gives its place back, also behind another on a pipelined connection', () => {
  let service: EmployeeTestService;
  let locker: Client;

  beforeAll(async () => {
    service = await startEmployeeTestService({ SEARCH_CONNECTIONS: '1', SEARCH_QUEUE_WAIT_MS: '1000' });
    locker = new Client({ connectionString: service.database.url });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await service?.close();
  });

  it('admits the next search once the connection of a waiting pipelined one is gone', async () => {
    const server = service.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE broker.customer_search IN ACCESS EXCLUSIVE MODE');
    const { port } = server.address() as AddressInfo;
    const headers = Object.entries(svcOtpHeaders(FIXTURE_API_CLIENTS.main))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const search = `GET ${service.employeePath(SEARCH)} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // The first takes the only place and waits on the lock; the second waits for the place.
    socket.write(search + search);
    await waitFor(async () => {
      const { rows } = await service.db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%search%'",
      );
      return rows[0].count === 1 || undefined;
    });
    socket.destroy();
    await locker.query('COMMIT');

    await service.call('get', service.employeePath(SEARCH)).expect(200);
  });
});
