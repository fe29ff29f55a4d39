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
