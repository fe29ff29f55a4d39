import { createLocalJWKSet, jwtVerify } from 'jose';
import request from 'supertest';
import { type CalcTestApp, PASSWORD, startCalcTestApp } from './calc-test-app.js';

describe('calc-service login (JWT, JWKS, throttling)', () => {
  let calc: CalcTestApp;
  const server = () => calc.server();
  const login = (username: string, password: string) => calc.login(username, password);

  beforeAll(async () => {
    calc = await startCalcTestApp({ CALC_TOKEN_TTL_SECONDS: '900', CALC_LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(() => calc?.close());

  it('answers good credentials (user name in any case) with a token, its expiry in Expires, verifiable by the JWKS', async () => {
    const before = Date.now();
    const response = await login('rechner', PASSWORD).expect(200);
    const { token } = response.body as { token: string };
    const expires = Date.parse(response.headers.expires);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 900_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 900_000);
    const jwks = await request(server()).get('/api/.well-known/jwks.json').expect(200);
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body as { keys: [] }), {
      issuer: 'broker-platform-calc',
    });
    expect(payload).toMatchObject({ name: 'Rechner', tenant: 'demo', sub: expect.stringMatching(/^\d+$/) });
    expect(payload.exp).toBe(Math.floor(expires / 1000));
  });

  it('gives a wrong password, an unknown user and a disabled user the same 401', async () => {
    const wrong = await login('rechner', 'falsch').expect(401);
    const unknown = await login('niemand', PASSWORD).expect(401);
    const disabled = await login('gesperrt', PASSWORD).expect(401);
    const expected = {
      name: 'AuthenticationFailed',
      message: 'User name or password is wrong',
      code: 1101,
      status: 401,
    };
    expect([wrong.body, unknown.body, disabled.body]).toEqual([expected, expected, expected]);
  });

  it('refuses further attempts after repeated failures with 429 and Retry-After, even with the right password', async () => {
    for (let attempt = 0; attempt < 3; attempt++) await login('drossel', 'falsch').expect(401);
    const limited = await login('drossel', PASSWORD).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ name: 'RateLimited', status: 429 });
    // Another user is not affected.
    await login('rechner', PASSWORD).expect(200);
  });

  it.each([
    [{ username: 'rechner' }, 'password must be a string'],
    [{ username: '', password: 'x' }, 'username must be longer than or equal to 1 characters'],
    [{ username: 'rechner', password: 'x', role: 'admin' }, 'property role should not exist'],
  ])('refuses the body %j with 400', async (body, message) => {
    const response = await request(server()).post('/api/login').send(body).expect(400);
    expect((response.body as { message: string }).message).toContain(message);
  });
});

describe('calc-service tokens of users deleted or disabled after login', () => {
  let calc: CalcTestApp;
  beforeAll(async () => {
    calc = await startCalcTestApp({ CALC_USER_STATUS_SECONDS: '1' });
  });
  afterAll(() => calc?.close());

  const calculate = (token: string) =>
    request(calc.server())
      .post('/api/v1/calculate/private-liability')
      .set('Authorization', `Bearer ${token}`)
      .send({
        policyholder: { birthdate: 482716800 },
        subject_matter: { policyholder: { civil_servant: false }, include_children: false },
      });
  const tokenOf = async (username: string) =>
    ((await calc.login(username, PASSWORD).expect(200)).body as { token: string }).token;
  const afterTheBound = () => new Promise((resolve) => setTimeout(resolve, 1_100));

  it.each([
    ['disabled', 'drossel', 'UPDATE calc.user_account SET disabled = true WHERE username = $1'],
    ['deleted', 'Rechner', 'DELETE FROM calc.user_account WHERE username = $1'],
  ])(
    'refuses the token of a user %s within CALC_USER_STATUS_SECONDS',
    async (_change, username, statement) => {
      const token = await tokenOf(username);
      await calculate(token).expect(200);
      await calc.query(statement, [username]);
      await afterTheBound();
      const refused = await calculate(token).expect(401);
      expect(refused.headers['www-authenticate']).toContain('invalid_token');
      expect(refused.body).toMatchObject({
        name: 'AuthenticationFailed',
        message: 'The user of this token no longer exists or is disabled',
      });
    },
  );
});

describe('calc-service login failures by client address behind the gateway (TRUSTED_PROXIES)', () => {
  let calc: CalcTestApp;
  beforeAll(async () => {
    // The default TRUSTED_PROXIES trusts loopback: the test is the gateway, X-Forwarded-For the client.
    calc = await startCalcTestApp({ CALC_LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(() => calc?.close());

  const from = (address: string, username: string, password: string) =>
    calc.login(username, password).set('X-Forwarded-For', address);
  /** How long `attempt` took to be answered, in ms. */
  const timed = async (attempt: () => Promise<unknown>) => {
    const started = Date.now();
    await attempt();
    return Date.now() - started;
  };

  it('refuses the address that kept failing, but never the right password from another address', async () => {
    for (let attempt = 0; attempt < 3; attempt++) await from('203.0.113.7', 'Rechner', 'falsch').expect(401);
    await from('203.0.113.7', 'Rechner', PASSWORD).expect(429);
    await from('198.51.100.9', 'Rechner', PASSWORD).expect(200);
  });

  it('checks at most CALC_LOGIN_MAX_FAILURES passwords from one address also when they arrive at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => from('203.0.113.50', 'niemand-gleichzeitig', 'falsch')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(27);
  });

  it('only slows a name failing from many addresses, by at most 3 s, and then lets the right password in', async () => {
    const attackers = Array.from({ length: 20 }, (_, index) => `203.0.113.${100 + index}`);
    await Promise.all(attackers.map((address) => from(address, 'drossel', 'falsch').expect(401)));
    // Twenty failures would be a delay of 9 s uncapped; the cap is 3 s.
    const wait = await timed(() => from('198.51.100.20', 'drossel', PASSWORD).expect(200));
    expect(wait).toBeGreaterThanOrEqual(3_000);
    expect(wait).toBeLessThan(6_000);
  });

  it('slows an unknown name as it slows a known one, so the wait tells nothing', async () => {
    for (const username of ['gesperrt', 'niemand-bekannt']) {
      for (let attempt = 0; attempt < 2; attempt++)
        await from(`192.0.2.${attempt + 1}`, username, 'falsch').expect(401);
    }
    // Three failures of each name now (the third below): a delay of 500 ms before each answer, the same 401.
    const answers = await Promise.all(
      ['gesperrt', 'niemand-bekannt'].map(async (username) => {
        await from('192.0.2.9', username, 'falsch').expect(401);
        let body: unknown;
        const wait = await timed(async () => {
          body = (await from('192.0.2.10', username, 'falsch').expect(401)).body;
        });
        return { wait: wait >= 500, body };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].wait).toBe(true);
  });
});
