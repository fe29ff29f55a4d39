import { expectOverloadRefusal, holdDatabasePool, OVERLOAD_TEST_POOL_WAIT_MS } from '@broker/testing';
import { type AdminTestApp, startAdminTestApp } from './admin-test-app.js';

describe('admin-service under overload (no database connection free within DB_POOL_WAIT_MS)', () => {
  let t: AdminTestApp;

  beforeAll(async () => {
    t = await startAdminTestApp({ DB_POOL_WAIT_MS: OVERLOAD_TEST_POOL_WAIT_MS });
  });
  afterAll(() => t?.close());

  it('refuses a read and a write with 503 and Retry-After in the area shape while the pool is held, and writes nothing', async () => {
    const token = await t.adminToken('demo');
    const held = await holdDatabasePool(t.app);
    try {
      expectOverloadRefusal(await t.call(token, 'get', '/tenants/demo/brokers'), 'api');
      expectOverloadRefusal(
        await t.call(token, 'post', '/tenants/demo/brokers', { number: 'O1', name: 'Überlast' }),
        'api',
      );
    } finally {
      held.release();
    }
    await t.call(token, 'get', '/tenants/demo/brokers/O1').expect(404);
    await t.call(token, 'post', '/tenants/demo/brokers', { number: 'O1', name: 'Überlast' }).expect(201);
  });
});
