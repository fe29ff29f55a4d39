import { generateKeyPair, SignJWT } from 'jose';
import request from 'supertest';
import { TEST_OAUTH_ISSUER } from '@broker/testing';
import { ADMIN_AUDIENCE, type AdminTestApp, BASE, startAdminTestApp } from './admin-test-app.js';

/** Who may administer what: operators every tenant, a tenant's administrator only its own, an import token nothing. */
describe('administration: tokens, scopes and tenant isolation', () => {
  let t: AdminTestApp;
  let operator: string;
  let demoAdmin: string;
  let nordAdmin: string;

  beforeAll(async () => {
    t = await startAdminTestApp();
    operator = await t.operatorToken();
    demoAdmin = await t.adminToken('demo');
    nordAdmin = await t.adminToken('nord');
  });
  afterAll(() => t?.close());

  it('refuses a request without a token, with a foreign signature or an expired token (401 with a challenge)', async () => {
    const none = await request(t.server()).get(`${BASE}/tenants`).expect(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ scope: 'platform.operator' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setSubject('intruder')
      .setIssuer(TEST_OAUTH_ISSUER)
      .setAudience(ADMIN_AUDIENCE)
      .setExpirationTime('5m')
      .sign(privateKey);
    await t.call(forged, 'get', '/tenants').expect(401);
    const expired = await t.authServer.token({
      audience: ADMIN_AUDIENCE,
      expiresIn: -60,
      claims: { scope: 'platform.operator', broker_id: undefined },
    });
    expect((await t.call(expired, 'get', '/tenants').expect(401)).body).toMatchObject({
      message: 'The token has expired',
    });
  });

  it('never takes an import token (scope service.imports) as an administration token, even with the right audience', async () => {
    const importToken = await t.importToken();
    const answer = await t.call(importToken, 'get', '/tenants/demo').expect(401);
    expect(answer.body).toMatchObject({ message: 'An import token is not an administration token' });
    const mixed = await t.authServer.token({
      audience: ADMIN_AUDIENCE,
      claims: { scope: 'platform.operator service.imports', broker_id: undefined },
    });
    await t.call(mixed, 'get', '/tenants').expect(401);
    const withBroker = await t.authServer.token({
      audience: ADMIN_AUDIENCE,
      claims: { scope: 'platform.operator', broker_id: 'V1000' },
    });
    await t.call(withBroker, 'get', '/tenants').expect(401);
  });

  it('refuses a token of another audience, and one without an administration scope (403 insufficient_scope)', async () => {
    const importAudience = await t.authServer.token({
      claims: { scope: 'platform.operator', broker_id: undefined },
    });
    await t.call(importAudience, 'get', '/tenants').expect(401);
    const noScope = await t.authServer.token({
      audience: ADMIN_AUDIENCE,
      claims: { scope: 'profile', broker_id: undefined },
    });
    const refused = await t.call(noScope, 'get', '/tenants').expect(403);
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="platform.admin or platform.operator"',
    );
    const adminWithoutTenant = await t.adminToken('demo', { tenant: undefined });
    await t.call(adminWithoutTenant, 'get', '/tenants').expect(401);
  });

  it.each(['sub', 'client_id', 'tenant'])(
    'refuses a token whose %s claim holds a NUL character (401, never a 500)',
    async (claim) => {
      const token = await t.adminToken('demo', { [claim]: 'de\u0000mo' });
      const answer = await t.call(token, 'get', '/tenants').expect(401);
      expect(answer.body.message).toBe(`The token's ${claim} claim is not accepted`);
      await t.call(token, 'post', '/tenants/demo/brokers', { number: 'NUL1', name: 'X' }).expect(401);
    },
  );

  it('lets only an operator create tenants', async () => {
    const refused = await t.call(demoAdmin, 'post', '/tenants', { id: 'selbst', name: 'Selbst' }).expect(403);
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="platform.operator"',
    );
    await t.call(operator, 'get', '/tenants/selbst').expect(404);
    await t.call(operator, 'post', '/tenants', { id: 'selbst', name: 'Selbst' }).expect(201);
  });

  it('shows an operator every tenant and a tenant administrator its own only', async () => {
    const all = (await t.call(operator, 'get', '/tenants').expect(200)).body as { items: { id: string }[] };
    expect(all.items.map((tenant) => tenant.id)).toEqual(expect.arrayContaining(['demo', 'nord']));
    const own = (await t.call(nordAdmin, 'get', '/tenants').expect(200)).body as { items: { id: string }[] };
    expect(own).toMatchObject({ items: [{ id: 'nord', name: 'Nord Pool' }], total: 1 });
  });

  it.each([
    ['get', '/tenants/demo'],
    ['get', '/tenants/demo/brokers'],
    ['get', '/tenants/demo/brokers/V1000'],
    ['get', '/tenants/demo/brokers/V1000/employees'],
    ['get', '/tenants/demo/api-clients'],
    ['get', '/tenants/demo/calc-users'],
    ['get', '/tenants/demo/companies'],
    ['get', '/tenants/demo/agreements'],
    ['get', '/tenants/demo/audit-events'],
  ] as const)('answers another tenant’s administrator 404 on %s %s', async (method, path) => {
    const answer = await t.call(nordAdmin, method, path).expect(404);
    expect(answer.body).toEqual({
      name: 'NotFound',
      message: 'Tenant demo does not exist',
      code: 1200,
      status: 404,
    });
    await t.call(demoAdmin, method, path).expect(200);
  });

  it.each([
    ['post', '/tenants/demo/brokers', { number: 'X1', name: 'Eindringling' }],
    ['patch', '/tenants/demo/brokers/V1000', { blocked: true }],
    ['post', '/tenants/demo/brokers/V1000/employees', { number: 'x_1', name: 'X' }],
    ['post', '/tenants/demo/brokers/V1000/api-clients', {}],
    [
      'post',
      '/tenants/demo/calc-users',
      { username: 'eindringling', password: 'Kiesel Abendrot Mondschein' },
    ],
    ['post', '/tenants/demo/companies', { vu_number: '4711', name: 'X' }],
    ['post', '/tenants/demo/agreements', { broker: 'V1000', vu_number: '9999' }],
  ] as const)(
    'answers another tenant’s administrator 404 on %s %s and writes nothing',
    async (method, path, body) => {
      const before = await t.db.query('SELECT count(*)::int AS events FROM broker.audit_event');
      await t.call(nordAdmin, method, path, body).expect(404);
      expect((await t.db.query('SELECT count(*)::int AS events FROM broker.audit_event')).rows).toEqual(
        before.rows,
      );
      expect(
        (await t.db.query("SELECT blocked FROM broker.broker WHERE broker_number = 'V1000'")).rows,
      ).toEqual([{ blocked: false }]);
    },
  );

  it('lets an operator administer any tenant', async () => {
    await t.call(operator, 'get', '/tenants/nord/brokers/N1').expect(200);
    await t.call(operator, 'get', '/tenants/demo/brokers/V1000').expect(200);
  });
});
