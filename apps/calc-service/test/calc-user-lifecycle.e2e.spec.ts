import request from 'supertest';
import { FIXTURE_WRITE, withAdministration } from '@broker/fixtures';
import { type CalcTestApp, PASSWORD, startCalcTestApp } from './calc-test-app.js';

const REQUEST = {
  policyholder: { birthdate: 482716800 },
  subject_matter: { policyholder: { civil_servant: false }, include_children: false },
};

/**
 * A calculation user as the administration changes it (its use cases, on the service's database): a disabled user's
 * tokens are refused within CALC_USER_STATUS_SECONDS, a user enabled again logs in and calculates at once although
 * the service still remembers it as disabled, and a new password counts at the next login.
 */
describe('calc-service: the lifecycle of a calculation user made by the administration', () => {
  let calc: CalcTestApp;
  const username = 'lebenszyklus';

  beforeAll(async () => {
    // Long enough that a remembered state outlives the test's steps: only the token's issue time can tell.
    calc = await startCalcTestApp({ CALC_USER_STATUS_SECONDS: '2' });
    await withAdministration(calc.databaseUrl, (admin) =>
      admin.calcUsers.create(FIXTURE_WRITE, 'demo', { username, password: PASSWORD }),
    );
  });
  afterAll(() => calc?.close());

  const setUser = (changes: { disabled?: boolean; password?: string }) =>
    withAdministration(calc.databaseUrl, (admin) =>
      admin.calcUsers.update(FIXTURE_WRITE, 'demo', username, changes),
    );
  const tokenOf = async (password = PASSWORD) =>
    ((await calc.login(username, password).expect(200)).body as { token: string }).token;
  const calculate = (token: string) =>
    request(calc.server())
      .post('/api/v1/calculate/private-liability')
      .set('Authorization', `Bearer ${token}`)
      .send(REQUEST);

  it('logs in and calculates once made', async () => {
    await calculate(await tokenOf()).expect(200);
  });

  it('refuses a disabled user’s login at once and its tokens within CALC_USER_STATUS_SECONDS', async () => {
    const token = await tokenOf();
    await calculate(token).expect(200);
    await setUser({ disabled: true });
    await calc.login(username, PASSWORD).expect(401);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 10_000) {
      status = (await calculate(token)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(calc.config.CALC_USER_STATUS_SECONDS * 1000 + 1_500);
  });

  it('lets a user enabled again log in and calculate at once, while the old token stays refused until it is read again', async () => {
    const old = await (async () => {
      await setUser({ disabled: false });
      const token = await tokenOf();
      await setUser({ disabled: true });
      return token;
    })();
    // The service reads the user as disabled and remembers it.
    await new Promise((resolve) => setTimeout(resolve, calc.config.CALC_USER_STATUS_SECONDS * 1000 + 100));
    await calculate(old).expect(401);
    await setUser({ disabled: false });
    const fresh = await tokenOf();
    await calculate(fresh).expect(200);
  });

  it('takes a new password at the next login', async () => {
    await setUser({ password: 'Tasse Nebel Ufer Kompass' });
    await calc.login(username, PASSWORD).expect(401);
    await calculate(await tokenOf('Tasse Nebel Ufer Kompass')).expect(200);
  });
});
