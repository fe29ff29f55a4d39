import type { APIRequestContext } from 'playwright-core';
import { CONSOLE_PEOPLE } from '@broker/testing';
import { callbackUrl, type ConsoleTestApp, csrfToken, startConsoleTestApp } from './console-support.js';

/** Access tokens of 32 s: the console renews them from 30 s before expiry, so every request after 2 s renews. */
const TOKEN_SECONDS = 32;

describe('operator console: OpenID login (code flow, PKCE), session, CSRF and the API behind it', () => {
  let t: ConsoleTestApp;

  beforeAll(async () => {
    t = await startConsoleTestApp(TOKEN_SECONDS);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const api = (path: string) => `${t.baseUrl}/api/v1${path}`;

  async function write(
    client: APIRequestContext,
    path: string,
    data: object,
    headers: Record<string, string>,
  ) {
    return client.post(api(path), { data, headers, maxRedirects: 0 });
  }

  it('sends a browser without a session to the provider with state, nonce and an S256 code challenge', async () => {
    const client = await t.newClient();
    const page = await client.get(`${t.baseUrl}/t/demo/brokers?x=1`, { maxRedirects: 0 });
    expect(page.status()).toBe(302);
    expect(page.headers().location).toBe(
      `/admin/console/login?return_to=${encodeURIComponent('/admin/console/t/demo/brokers?x=1')}`,
    );
    const login = await client.get(`${t.baseUrl}/login`, { maxRedirects: 0 });
    expect(login.status()).toBe(302);
    const authorize = new URL(login.headers().location);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${t.provider.issuer}/auth`);
    const query = Object.fromEntries(authorize.searchParams);
    expect(query).toMatchObject({
      client_id: 'broker-console',
      response_type: 'code',
      redirect_uri: `${t.baseUrl}/callback`,
      code_challenge_method: 'S256',
    });
    expect(query.state).toMatch(/^[\w-]{40,}$/);
    expect(query.nonce).toMatch(/^[\w-]{40,}$/);
    expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(query.scope.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'platform.admin', 'platform.operator']),
    );
    const cookie = login.headers()['set-cookie'];
    expect(cookie).toMatch(
      /^broker_console_login=[\w-]{43}; Max-Age=600; Path=\/admin\/console; HttpOnly; SameSite=Lax$/,
    );
  });

  it('logs a person in: an HttpOnly SameSite cookie only, the tokens encrypted on the server', async () => {
    const client = await t.newClient();
    const callback = await callbackUrl(client, t.baseUrl, CONSOLE_PEOPLE.anna);
    const answer = await client.get(callback, { maxRedirects: 0 });
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe('/admin/console/');
    const cookies = answer.headersArray().filter((header) => header.name.toLowerCase() === 'set-cookie');
    expect(cookies.map((cookie) => cookie.value)).toEqual([
      'broker_console_login=; Max-Age=0; Path=/admin/console; HttpOnly; SameSite=Lax',
      expect.stringMatching(
        /^broker_console_session=[\w-]{43}; Path=\/admin\/console; HttpOnly; SameSite=Lax$/,
      ),
    ]);
    const session = await client.get(`${t.baseUrl}/session`);
    expect(session.status()).toBe(200);
    expect(session.headers()['cache-control']).toBe('no-store');
    const body = (await session.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ subject: 'anna', name: 'Anna Admin', role: 'tenant-admin', tenant: 'demo' });
    expect(JSON.stringify(body)).not.toMatch(/eyJ/);
    const stored = await t.admin.db.query<{ tokens_ciphertext: string }>(
      'SELECT tokens_ciphertext FROM admin.console_session WHERE subject = $1',
      ['anna'],
    );
    expect(stored.rows[0].tokens_ciphertext).toMatch(/^v1:/);
    expect(stored.rows[0].tokens_ciphertext).not.toMatch(/eyJ/);
    const page = await client.get(`${t.baseUrl}/`);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');
  });

  it('refuses a forged state, a forged code and a callback used twice', async () => {
    const forgedState = await t.newClient();
    const withState = new URL(await callbackUrl(forgedState, t.baseUrl, CONSOLE_PEOPLE.anna));
    withState.searchParams.set('state', 'forged-state-0123456789012345678901234567890');
    const refusedState = await forgedState.get(withState.href, { maxRedirects: 0 });
    expect(refusedState.status()).toBe(400);
    expect(await refusedState.text()).toContain('Anmeldung fehlgeschlagen');

    const forgedCode = await t.newClient();
    const withCode = new URL(await callbackUrl(forgedCode, t.baseUrl, CONSOLE_PEOPLE.anna));
    withCode.searchParams.set('code', 'forged-code-0123456789012345678901234567890');
    expect((await forgedCode.get(withCode.href, { maxRedirects: 0 })).status()).toBe(400);

    const replayed = await t.newClient();
    const callback = await callbackUrl(replayed, t.baseUrl, CONSOLE_PEOPLE.anna);
    expect((await replayed.get(callback, { maxRedirects: 0 })).status()).toBe(303);
    expect((await replayed.get(callback, { maxRedirects: 0 })).status()).toBe(400);

    // Another browser cannot finish a login it did not start (the login cookie ties the callback to its browser).
    const started = await t.newClient();
    const stolen = await callbackUrl(started, t.baseUrl, CONSOLE_PEOPLE.anna);
    const other = await t.newClient();
    expect((await other.get(stolen, { maxRedirects: 0 })).status()).toBe(400);
    expect((await other.get(`${t.baseUrl}/session`)).status()).toBe(401);
  });

  it('sends a person back only to the console’s own pages after login, whatever return_to says', async () => {
    const client = await t.newClient();
    for (const [returnTo, kept] of [
      ['/admin/console/t/demo/imports?status=failed', '/admin/console/t/demo/imports?status=failed'],
      ['/admin/console/%00', '/admin/console/%00'],
      ['/admin/console/\u0000x', '/admin/console/'],
      ['/admin/console/../..//evil.example', '/admin/console/'],
      ['/admin/console/%2e%2e/%2e%2e/evil', '/admin/console/'],
      ['//evil.example/admin/console/', '/admin/console/'],
      ['https://evil.example/admin/console/', '/admin/console/'],
    ]) {
      const login = await client.get(`${t.baseUrl}/login?return_to=${encodeURIComponent(returnTo)}`, {
        maxRedirects: 0,
      });
      expect(login.status()).toBe(302);
      const state = new URL(login.headers().location).searchParams.get('state');
      const stored = await t.admin.db.query<{ return_to: string }>(
        'SELECT return_to FROM admin.console_login WHERE state = $1',
        [state],
      );
      expect([returnTo, stored.rows[0].return_to]).toEqual([returnTo, kept]);
    }
  });

  it('answers no data without a session', async () => {
    const client = await t.newClient();
    for (const path of ['/session', '/api/v1/tenants', '/api/v1/tenants/demo/brokers']) {
      const answer = await client.get(`${t.baseUrl}${path}`, { maxRedirects: 0 });
      expect(answer.status()).toBe(401);
      expect(await answer.json()).toMatchObject({ name: 'AuthenticationRequired', status: 401 });
    }
    const write = await client.post(api('/tenants/demo/brokers'), { data: { number: 'X', name: 'X' } });
    expect(write.status()).toBe(401);
  });

  it('refuses a write without the session CSRF token or from another origin, and takes it from the console', async () => {
    const client = await t.loggedIn(CONSOLE_PEOPLE.anna);
    const csrf = await csrfToken(client, t.baseUrl);
    const broker = { number: 'K1', name: 'Konsole Eins' };
    expect((await write(client, '/tenants/demo/brokers', broker, {})).status()).toBe(403);
    expect(
      (await write(client, '/tenants/demo/brokers', broker, { 'X-CSRF-Token': 'x'.repeat(43) })).status(),
    ).toBe(403);
    const crossSite = await write(client, '/tenants/demo/brokers', broker, {
      'X-CSRF-Token': csrf,
      Origin: 'http://evil.example',
    });
    expect(crossSite.status()).toBe(403);
    expect(await crossSite.json()).toMatchObject({ name: 'Forbidden', status: 403 });
    const created = await write(client, '/tenants/demo/brokers', broker, {
      'X-CSRF-Token': csrf,
      Origin: t.origin,
    });
    expect(created.status()).toBe(201);
    expect(created.headers()['cache-control']).toBe('no-store');
    const { rows } = await t.admin.db.query<{ actor_kind: string; actor: string; action: string }>(
      `SELECT actor_kind, actor, action FROM broker.audit_event WHERE target = 'brokers/K1'`,
    );
    expect(rows).toEqual([{ actor_kind: 'tenant-admin', actor: 'anna', action: 'createBroker' }]);
  });

  it("keeps a tenant's administrator to the tenant: another tenant's data is a 404, the tenants list the own", async () => {
    const nils = await t.loggedIn(CONSOLE_PEOPLE.nils);
    expect((await nils.get(api('/tenants/nord/brokers'))).status()).toBe(200);
    expect((await nils.get(api('/tenants/demo/brokers'))).status()).toBe(404);
    expect((await nils.get(api('/tenants/demo/brokers/V1000'))).status()).toBe(404);
    expect((await nils.get(api('/tenants/demo/audit-events'))).status()).toBe(404);
    const ownTenants = await nils.get(api('/tenants'));
    expect(
      ((await ownTenants.json()) as { items: { id: string }[] }).items.map((tenant) => tenant.id),
    ).toEqual(['nord']);
    const tenantWrite = await write(
      nils,
      '/tenants',
      { id: 'neu', name: 'Neu' },
      { 'X-CSRF-Token': await csrfToken(nils, t.baseUrl) },
    );
    expect(tenantWrite.status()).toBe(403);
    const csrf = await csrfToken(nils, t.baseUrl);
    const intoDemo = await write(
      nils,
      '/tenants/demo/brokers',
      { number: 'N9', name: 'x' },
      { 'X-CSRF-Token': csrf },
    );
    expect(intoDemo.status()).toBe(404);

    const olga = await t.loggedIn(CONSOLE_PEOPLE.olga);
    const tenants = await olga.get(api('/tenants'));
    expect(tenants.status()).toBe(200);
    expect(((await tenants.json()) as { items: { id: string }[] }).items.map((tenant) => tenant.id)).toEqual(
      expect.arrayContaining(['demo', 'nord']),
    );
  });

  /** An event stream through the console with the client's session; `ended`: whether it ended within 5 s. */
  async function openConsoleStream(client: APIRequestContext, url: string) {
    const { cookies } = await client.storageState();
    const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
    const answer = await fetch(url, { headers: { Cookie: cookie } });
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    const readToEnd = async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done);
      return true;
    };
    return {
      get ended() {
        return Promise.race([
          readToEnd(),
          new Promise<boolean>((resolve) => setTimeout(resolve, 5_000, false)),
        ]);
      },
    };
  }

  it('sends the security headers with every page: a strict CSP, no framing, no referrer', async () => {
    const client = await t.loggedIn(CONSOLE_PEOPLE.olga);
    const pages = [
      ...[
        '/',
        '/tenants',
        '/t/demo/brokers',
        '/t/demo/brokers/V1000',
        '/t/demo/calc-users',
        '/t/demo/companies',
      ],
      ...['/t/demo/master-data', '/t/demo/audit', '/t/demo/imports', '/t/demo/imports/x', '/t/demo/webhooks'],
      ...['/t/demo/webhooks/1', '/t/demo/messages', '/nirgends', '/queuesfoo', '/session', '/api/v1/tenants'],
    ];
    for (const path of pages) {
      const answer = await client.get(`${t.baseUrl}${path}`);
      const csp = answer.headers()['content-security-policy'];
      const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1];
      expect(scriptSrc).toBe("'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toMatch(/unsafe-(inline|eval)/);
      expect(answer.headers()['referrer-policy']).toBe('no-referrer');
      expect(answer.headers()['x-content-type-options']).toBe('nosniff');
    }
    const loginRedirect = await (await t.newClient()).get(`${t.baseUrl}/`, { maxRedirects: 0 });
    expect(loginRedirect.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('renews an expiring access token with the refresh token, also under concurrent requests of the session', async () => {
    const client = await t.loggedIn(CONSOLE_PEOPLE.anna);
    const expiry = async () =>
      (
        await t.admin.db.query<{ at: Date }>(
          `SELECT access_expires_at AS at FROM admin.console_session WHERE subject = 'anna' ORDER BY created_at DESC LIMIT 1`,
        )
      ).rows[0].at.getTime();
    const before = await expiry();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.get(api('/tenants/demo/brokers'))),
    );
    expect(answers.map((answer) => answer.status())).toEqual([200, 200, 200, 200, 200]);
    const renewed = await expiry();
    expect(renewed).toBeGreaterThan(before);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await client.get(api('/tenants/demo/brokers'))).status()).toBe(200);
    expect(await expiry()).toBeGreaterThan(renewed);
  });

  it('logs out here and at the provider, ending the session’s event streams', async () => {
    const client = await t.loggedIn(CONSOLE_PEOPLE.anna);
    const csrf = await csrfToken(client, t.baseUrl);
    const stream = await openConsoleStream(client, api('/tenants/demo/import-processes/events'));
    expect((await client.post(`${t.baseUrl}/logout`)).status()).toBe(403);
    const logout = await client.post(`${t.baseUrl}/logout`, { headers: { 'X-CSRF-Token': csrf } });
    expect(logout.status()).toBe(200);
    const { logout_url } = (await logout.json()) as { logout_url: string };
    const endSession = new URL(logout_url);
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${t.provider.issuer}/session/end`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${t.baseUrl}/`);
    expect(endSession.searchParams.get('id_token_hint')).toMatch(/^eyJ/);
    expect((await client.get(`${t.baseUrl}/session`)).status()).toBe(401);
    expect((await client.get(api('/tenants/demo/brokers'))).status()).toBe(401);
    expect(await stream.ended).toBe(true);
    const providerPage = await client.get(logout_url);
    expect(await providerPage.text()).toContain('Abmelden');
  });
});
