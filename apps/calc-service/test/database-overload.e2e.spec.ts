import { expectOverloadRefusal, holdDatabasePool, OVERLOAD_TEST_POOL_WAIT_MS } from '@broker/testing';
import { type CalcTestApp, PASSWORD, startCalcTestApp } from './calc-test-app.js';

describe('calc-service under overload (no database connection free within DB_POOL_WAIT_MS)', () => {
  let calc: CalcTestApp;

  beforeAll(async () => {
    calc = await startCalcTestApp({ DB_POOL_WAIT_MS: OVERLOAD_TEST_POOL_WAIT_MS });
  });
  afterAll(() => calc?.close());

  it('refuses a login with 503 and Retry-After in the area shape while the pool is held, and serves it after', async () => {
    const held = await holdDatabasePool(calc.app);
    try {
      expectOverloadRefusal(await calc.login('Rechner', PASSWORD), 'api');
    } finally {
      held.release();
    }
    await calc.login('Rechner', PASSWORD).expect(200);
  });
});
