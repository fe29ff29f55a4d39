import { Secret, TOTP } from 'otpauth';
import { ApiKeyCipher, passwordMatches, svcOtp } from '@broker/auth';
import { refusedByRule } from '@broker/testing';
import { type AdminTestApp, startAdminTestApp } from './admin-test-app.js';

const STRONG_PASSWORD = 'Kiesel Abendrot Mondschein';

/** API clients of area C, calculation users of area B, insurers and agreements, as the administration API makes them. */
describe('administration: credentials, insurers and agreements', () => {
  let t: AdminTestApp;
  let token: string;

  beforeAll(async () => {
    t = await startAdminTestApp();
    token = await t.adminToken('demo');
  });
  afterAll(() => t?.close());

  describe('API clients', () => {
    it('shows a new key and its OTP URI once, and stores the key encrypted', async () => {
      const created = await t
        .call(token, 'post', '/tenants/demo/brokers/V1000/api-clients', { api_id: 'portal-1' })
        .expect(201);
      expect(created.headers.location).toBe('/admin/v1/tenants/demo/api-clients/portal-1');
      expect(created.headers['cache-control']).toBe('no-store');
      const { api_key: apiKey, otp_uri: otpUri } = created.body as { api_key: string; otp_uri: string };
      expect(apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const uri = new URL(otpUri);
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.searchParams.get('digits')).toBe('8');
      expect(uri.searchParams.get('period')).toBe('30');
      expect(uri.searchParams.get('algorithm')).toBe('SHA1');
      expect(uri.searchParams.get('secret')).toBe(Secret.fromUTF8(apiKey).base32);
      // What an authenticator app computes from the URI is what area C checks.
      const now = Date.now();
      expect(
        new TOTP({ secret: Secret.fromBase32(uri.searchParams.get('secret')!), digits: 8 }).generate({
          timestamp: now,
        }),
      ).toBe(svcOtp(apiKey, now));
      const stored = await t.db.query<{ api_key_ciphertext: string }>(
        "SELECT api_key_ciphertext FROM broker.api_client WHERE api_id = 'portal-1'",
      );
      expect(stored.rows[0].api_key_ciphertext).not.toContain(apiKey);
      expect(new ApiKeyCipher(t.encryptionKey).decrypt(stored.rows[0].api_key_ciphertext)).toBe(apiKey);
      const read = await t.call(token, 'get', '/tenants/demo/api-clients/portal-1').expect(200);
      expect(read.body).toMatchObject({
        api_id: 'portal-1',
        broker: 'V1000',
        blocked: false,
        previous_key_valid_until: null,
      });
      expect(JSON.stringify(read.body)).not.toContain(apiKey);
    });

    it('makes up an API id when none is given, and refuses a taken or malformed one', async () => {
      const created = await t.call(token, 'post', '/tenants/demo/brokers/V1002/api-clients', {}).expect(201);
      expect(created.body.api_id).toMatch(/^v1002-[0-9a-f]{8}$/);
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1002/api-clients', { api_id: 'portal-1' })
        .expect(409);
      await t.call(token, 'post', '/tenants/demo/brokers/V1002/api-clients', { api_id: 'a b' }).expect(400);
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1002/api-clients', { api_key: 'my-own-key-please' })
        .expect(400);
      await t.call(token, 'post', '/tenants/demo/brokers/GIBTSNICHT/api-clients', {}).expect(404);
    });

    it('rotates a key: the new one shown once, the previous one valid for 24 hours', async () => {
      const rotated = await t.call(token, 'post', '/tenants/demo/api-clients/portal-1/key').expect(200);
      expect(rotated.headers['cache-control']).toBe('no-store');
      const { api_key: apiKey, previous_key_valid_until: until } = rotated.body as {
        api_key: string;
        previous_key_valid_until: string;
      };
      expect(Date.parse(until) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      expect(Date.parse(until) - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
      const read = await t.call(token, 'get', '/tenants/demo/api-clients/portal-1').expect(200);
      expect(read.body.previous_key_valid_until).toBe(until);
      const stored = await t.db.query<{ current: string; previous: string }>(
        `SELECT api_key_ciphertext AS current, previous_key_ciphertext AS previous FROM broker.api_client
          WHERE api_id = 'portal-1'`,
      );
      const cipher = new ApiKeyCipher(t.encryptionKey);
      expect(cipher.decrypt(stored.rows[0].current)).toBe(apiKey);
      expect(cipher.decrypt(stored.rows[0].previous)).not.toBe(apiKey);
      await t.call(token, 'post', '/tenants/demo/api-clients/unbekannt/key').expect(404);
    });

    it('blocks, lists (no keys) and deletes clients', async () => {
      const blocked = await t
        .call(token, 'patch', '/tenants/demo/api-clients/portal-1', { blocked: true })
        .expect(200);
      expect(blocked.body).toMatchObject({ blocked: true });
      await t.call(token, 'patch', '/tenants/demo/api-clients/portal-1', { blocked: 'ja' }).expect(400);
      await t.call(token, 'patch', '/tenants/demo/api-clients/portal-1', {}).expect(400);
      const list = await t.call(token, 'get', '/tenants/demo/api-clients?broker=V1000').expect(200);
      expect(list.body).toMatchObject({ total: 1, items: [{ api_id: 'portal-1', blocked: true }] });
      const all = await t.call(token, 'get', '/tenants/demo/api-clients').expect(200);
      expect(all.body.total).toBe(2);
      await t.call(token, 'get', '/tenants/demo/api-clients?broker=GIBTSNICHT').expect(404);
      await t.call(token, 'delete', '/tenants/demo/api-clients/portal-1').expect(204);
      await t.call(token, 'get', '/tenants/demo/api-clients/portal-1').expect(404);
      await t.call(token, 'delete', '/tenants/demo/api-clients/portal-1').expect(404);
    });
  });

  describe('calculation users', () => {
    it('creates a user with an argon2id hash of a password that follows the rules, never answering it', async () => {
      const created = await t
        .call(token, 'post', '/tenants/demo/calc-users', { username: 'vergleich', password: STRONG_PASSWORD })
        .expect(201);
      expect(created.headers.location).toBe('/admin/v1/tenants/demo/calc-users/vergleich');
      expect(created.body).toEqual({
        username: 'vergleich',
        disabled: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const stored = await t.db.query<{ password_hash: string; tenant_code: string }>(
        "SELECT password_hash, tenant_code FROM calc.user_account WHERE username = 'vergleich'",
      );
      expect(stored.rows[0].tenant_code).toBe('demo');
      expect(stored.rows[0].password_hash).toMatch(/^\$argon2id\$/);
      expect(await passwordMatches(stored.rows[0].password_hash, STRONG_PASSWORD)).toBe(true);
    });

    it.each([
      ['short', 'kurz', 'password must be at least 10 characters long'],
      ['easy to guess', 'Passwort2024!', 'password is too easy to guess'],
      ['containing the user name', 'Vergleich2 Kiesel Abendrot', 'password must not contain the user name'],
    ])('refuses a password that is %s', async (_case, password, message) => {
      const refused = await refusedByRule(
        t.call(token, 'post', '/tenants/demo/calc-users', { username: 'vergleich2', password }),
      ).expect(400);
      expect(refused.body.message).toContain(message);
      expect(JSON.stringify(refused.body)).not.toContain(password);
    });

    it('refuses a taken user name, across tenants too, and a malformed one', async () => {
      await t
        .call(token, 'post', '/tenants/demo/calc-users', { username: 'Vergleich', password: STRONG_PASSWORD })
        .expect(409);
      const nord = await t.adminToken('nord');
      await t
        .call(nord, 'post', '/tenants/nord/calc-users', { username: 'vergleich', password: STRONG_PASSWORD })
        .expect(409);
      await t
        .call(token, 'post', '/tenants/demo/calc-users', { username: 'a b', password: STRONG_PASSWORD })
        .expect(400);
    });

    it('disables, enables and sets a password; lists and reads users; another tenant’s user is a 404', async () => {
      const disabled = await t
        .call(token, 'patch', '/tenants/demo/calc-users/vergleich', { disabled: true })
        .expect(200);
      expect(disabled.body).toMatchObject({ disabled: true });
      await t
        .call(token, 'patch', '/tenants/demo/calc-users/vergleich', {
          disabled: false,
          password: 'Tasse Nebel Ufer Kompass',
        })
        .expect(200);
      const stored = await t.db.query<{ password_hash: string }>(
        "SELECT password_hash FROM calc.user_account WHERE username = 'vergleich'",
      );
      expect(await passwordMatches(stored.rows[0].password_hash, 'Tasse Nebel Ufer Kompass')).toBe(true);
      await refusedByRule(
        t.call(token, 'patch', '/tenants/demo/calc-users/vergleich', { password: 'kurz' }),
      ).expect(400);
      const list = await t.call(token, 'get', '/tenants/demo/calc-users').expect(200);
      expect(list.body).toMatchObject({ total: 1, items: [{ username: 'vergleich', disabled: false }] });
      await t.call(token, 'get', '/tenants/demo/calc-users/VERGLEICH').expect(200);
      const nord = await t.adminToken('nord');
      await t.call(nord, 'patch', '/tenants/nord/calc-users/vergleich', { disabled: true }).expect(404);
      await t.call(nord, 'get', '/tenants/nord/calc-users/vergleich').expect(404);
    });
  });

  describe('insurers and agreements', () => {
    it('creates, reads and lists insurers; refuses a taken or malformed VU number', async () => {
      const created = await t
        .call(token, 'post', '/tenants/demo/companies', { vu_number: '4711', name: 'Kölner Versicherung AG' })
        .expect(201);
      expect(created.headers.location).toBe('/admin/v1/tenants/demo/companies/4711');
      await t.call(token, 'get', '/tenants/demo/companies/4711').expect(200);
      await t.call(token, 'post', '/tenants/demo/companies', { vu_number: '4711', name: 'X' }).expect(409);
      await t.call(token, 'post', '/tenants/demo/companies', { vu_number: '47-11', name: 'X' }).expect(400);
      const list = await t.call(token, 'get', '/tenants/demo/companies').expect(200);
      const companies = (list.body as { items: { vu_number: string }[] }).items;
      expect(companies.map((company) => company.vu_number)).toEqual(['4711', '5512', '9999']);
      await t.call(token, 'get', '/tenants/nord/companies/4711').expect(404);
    });

    it('records, lists and ends agreements', async () => {
      const created = await t
        .call(token, 'post', '/tenants/demo/agreements', {
          broker: 'V1002',
          vu_number: '4711',
          agency_number: 'AG-7',
        })
        .expect(201);
      expect(created.body).toMatchObject({ broker: 'V1002', vu_number: '4711', agency_number: 'AG-7' });
      await t
        .call(token, 'post', '/tenants/demo/agreements', { broker: 'V1002', vu_number: '4711' })
        .expect(409);
      await refusedByRule(
        t.call(token, 'post', '/tenants/demo/agreements', { broker: 'V1002', vu_number: '1111' }),
      ).expect(400);
      await refusedByRule(
        t.call(token, 'post', '/tenants/demo/agreements', { broker: 'N1', vu_number: '4711' }),
      ).expect(400);
      await t
        .call(token, 'post', '/tenants/demo/agreements', { broker: 'V1000', vu_number: '9999' })
        .expect(201);
      const byBroker = await t.call(token, 'get', '/tenants/demo/agreements?broker=V1002').expect(200);
      expect(byBroker.body).toMatchObject({ total: 1, items: [{ vu_number: '4711' }] });
      const byInsurer = await t.call(token, 'get', '/tenants/demo/agreements?vu_number=9999').expect(200);
      expect(byInsurer.body).toMatchObject({ total: 1, items: [{ broker: 'V1000', agency_number: null }] });
      await t.call(token, 'delete', '/tenants/demo/agreements/V1002/4711').expect(204);
      await t.call(token, 'delete', '/tenants/demo/agreements/V1002/4711').expect(404);
      expect((await t.call(token, 'get', '/tenants/demo/agreements').expect(200)).body.total).toBe(1);
    });
  });
});
