import { generateKeyPairSync } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { hash } from '@node-rs/argon2';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { parseConfig } from '@broker/config';
import { createHttpApp } from '@broker/platform';
import { createTestDatabase, type TestDatabase } from '@broker/testing';
import { AppModule } from '../src/app.module.js';
import { calcEnvShape } from '../src/config.js';

describe('calc-service login (JWT, JWKS, throttling)', () => {
  let database: TestDatabase;
  let app: INestApplication;
  const server = () => app.getHttpServer() as App;
  const login = (username: string, password: string) =>
    request(server()).post('/api/login').send({ username, password });

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = new Client({ connectionString: database.url });
    await db.connect();
    await db.query(
      `INSERT INTO calc.user_account (tenant_code, username, password_hash, disabled)
       VALUES ('demo', 'Rechner', $1, false), ('demo', 'gesperrt', $1, true), ('demo', 'drossel', $1, false)`,
      [await hash('richtiges-passwort')],
    );
    await db.end();
    const config = parseConfig(calcEnvShape, {
      DATABASE_URL: database.url,
      CALC_JWT_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      CALC_TOKEN_TTL_SECONDS: '900',
      CALC_LOGIN_MAX_FAILURES: '3',
      LOG_LEVEL: 'silent',
    });
    app = await createHttpApp(AppModule.forRoot(config));
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('answers good credentials (user name in any case) with a token, its expiry in Expires, verifiable by the JWKS', async () => {
    const before = Date.now();
    const response = await login('rechner', 'richtiges-passwort').expect(200);
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
    const unknown = await login('niemand', 'richtiges-passwort').expect(401);
    const disabled = await login('gesperrt', 'richtiges-passwort').expect(401);
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
    const limited = await login('drossel', 'richtiges-passwort').expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ name: 'RateLimited', status: 429 });
    // Another user is not affected.
    await login('rechner', 'richtiges-passwort').expect(200);
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
