import { verify } from '@node-rs/argon2';
import type { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import {
  customerPageClients,
  expectPageSecurityHeaders,
  type OpenedForm,
  type PageClient,
} from './customer-page-client.js';
import { type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { expireSignatureLink, insertCustomer, insertSignatureLink } from './signing-support.js';

const PAGE = '/service/demo/passwort-setzen';
const RATE_LIMIT = 8;
const GOOD_PASSWORD = 'Wanderdüne Kompass Regal Zimt';

describe('password page behind the link of addKunde (HTTP, no browser)', () => {
  let service: EmployeeTestService;
  let db: Client;
  let newClient: () => PageClient;
  let customerNumber = 0;

  beforeAll(async () => {
    service = await startEmployeeTestService({ PASSWORD_PAGE_RATE_LIMIT: String(RATE_LIMIT) });
    db = service.db;
    newClient = customerPageClients(service, PAGE);
  });
  afterAll(async () => {
    await service?.close();
  });

  /** A customer with a user name (unique in the tenant) and an open password link. */
  async function customerWithLink(firstName: string, lastName: string) {
    const customer = await insertCustomer(db, firstName, lastName);
    const userName = `${firstName}.${lastName}${++customerNumber}`.toLowerCase();
    await db.query('UPDATE broker.customer SET user_name = $2 WHERE id = $1', [customer, userName]);
    return { customer, userName, token: await insertSignatureLink(db, customer, { purpose: 'passwort' }) };
  }

  const submit = (client: PageClient, form: OpenedForm, password: string, repeat = password) =>
    client.submit(form, { password, repeat });

  async function writes(customerId: string) {
    const { rows } = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM broker.customer_password WHERE customer_id = $1) AS passwords,
              (SELECT count(*)::int FROM broker.audit_event WHERE customer_id = $1) AS audits,
              (SELECT count(*)::int FROM broker.customer_link_token WHERE customer_id = $1 AND used_at IS NOT NULL)
                AS used`,
      [customerId],
    );
    return rows[0];
  }
  const NOTHING_WRITTEN = { passwords: 0, audits: 0, used: 0 };

  async function storedHash(customerId: string): Promise<string> {
    const { rows } = await db.query<{ password_hash: string }>(
      'SELECT password_hash FROM broker.customer_password WHERE customer_id = $1',
      [customerId],
    );
    return rows[0].password_hash;
  }

  it('shows the form with the user name, security headers, its stylesheet only and a CSRF cookie', async () => {
    const { token } = await customerWithLink('Paula', 'Passwort');
    const client = newClient();
    const page = await client.get(`${PAGE}?token=${token}`).expect(200);
    expectPageSecurityHeaders(page.headers);
    expect(page.headers['set-cookie']?.[0]).toMatch(
      /^passwort_csrf=[\w-]{32}; Path=\/service\/demo\/passwort-setzen; HttpOnly; SameSite=Lax$/,
    );
    expect(page.text).toContain('Muster Makler GmbH');
    expect(page.text).toMatch(
      /id="benutzername"\s+name="username"\s+value="paula.passwort\d+"\s+autocomplete="username"/,
    );
    expect(page.text).toMatch(
      /<input\s+type="password"\s+id="passwort"\s+name="password"\s+autocomplete="new-password"/,
    );
    expect(page.text).toMatch(/<label for="passwort-wiederholung">/);
    expect(page.text).not.toMatch(/<script|style=|https?:\/\//);
    const assets = [
      ...page.text.matchAll(/(?:href|src)="(\/service\/demo\/passwort-setzen\/assets\/[^"]+)"/g),
    ];
    expect(assets.map((match) => match[1].replace(/\?v=\w+$/, ''))).toEqual([
      `${PAGE}/assets/customer-pages.css`,
    ]);
    const stylesheet = await client.get(assets[0][1]).expect(200);
    expect(stylesheet.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('stores the password as argon2id, spends the link and every other open password link, and audits', async () => {
    const { customer, token } = await customerWithLink('Sven', 'Setzer');
    const olderLink = await insertSignatureLink(db, customer, { purpose: 'passwort' });
    const signatureLink = await insertSignatureLink(db, customer);
    const client = newClient();
    const form = await client.open(token);
    // Typed in decomposed form (u + combining diaeresis): stored normalised, so either form signs in.
    const typed = 'Grün Wolke Fähre Kiesel'.normalize('NFD');
    const done = await submit(client, form, typed).expect(200);
    expect(done.text).toContain('Ihr Passwort ist gespeichert');
    expect(done.text).toMatch(/<strong>sven\.setzer\d+<\/strong>/);
    expect(done.text).not.toContain(typed);

    const hash = await storedHash(customer);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verify(hash, 'Grün Wolke Fähre Kiesel'.normalize('NFC'))).toBe(true);
    expect(await verify(hash, 'Grün Wolke Fähre Kiesel!')).toBe(false);
    const { rows: audits } = await db.query(
      'SELECT action, actor, client_address, details FROM broker.audit_event WHERE customer_id = $1',
      [customer],
    );
    expect(audits).toEqual([
      expect.objectContaining({ action: 'passwort_gesetzt', actor: 'kunde', client_address: client.address }),
    ]);
    expect(JSON.stringify(audits)).not.toContain('Kiesel');
    // Both password links are spent; the signature link is not.
    await client.get(`${PAGE}?token=${olderLink}`).expect(410);
    await newClient().get(`/service/demo/unterschrift?token=${signatureLink}`).expect(200);
    expect(await writes(customer)).toEqual({ passwords: 1, audits: 1, used: 2 });
  });

  it('replaces the password when the customer sets one through a new link', async () => {
    const { customer, token } = await customerWithLink('Rolf', 'Reset');
    const client = newClient();
    await submit(client, await client.open(token), GOOD_PASSWORD).expect(200);
    const second = await insertSignatureLink(db, customer, { purpose: 'passwort' });
    await submit(client, await client.open(second), 'Leuchtturm Apfel Gitarre Moos').expect(200);
    const hash = await storedHash(customer);
    expect(await verify(hash, 'Leuchtturm Apfel Gitarre Moos')).toBe(true);
    expect(await verify(hash, GOOD_PASSWORD)).toBe(false);
  });

  it.each([
    ['too short', 'Kurz 12!', 'mindestens 10 Zeichen'],
    ['too long', 'x'.repeat(129), 'höchstens 128 Zeichen'],
    ['only spaces', ' '.repeat(12), 'nicht nur aus Leerzeichen'],
    ['a common password', 'passwort123', 'zu leicht zu erraten'],
    ['a keyboard row', 'qwertzuiopü', 'zu leicht zu erraten'],
    ['a name and a year', 'Michael1985!', 'zu leicht zu erraten'],
    ['a common word, a year and a sign', 'Passwort2024!', 'zu leicht zu erraten'],
    ["the customer's first name and a year", 'Wilma2024!!!', 'zu leicht zu erraten'],
    ["a word of the broker's name", 'Muster2024!', 'zu leicht zu erraten'],
    ['a long repetition', 'ab'.repeat(60), 'zu leicht zu erraten'],
    ["the page's own example", 'Fahrrad Nebel Tasse Ufer', 'zu leicht zu erraten'],
    ['the user name in it', 'Zugang {user} Herbstlaub', 'Benutzernamen nicht enthalten'],
  ])('refuses %s with the form again (400), writing nothing', async (_case, pattern, message) => {
    const { customer, token, userName } = await customerWithLink('Wilma', 'Weak');
    const password = pattern.replace('{user}', userName.toUpperCase());
    const client = newClient();
    const form = await client.open(token);
    const answer = await submit(client, form, password).expect(400);
    expect(answer.text).toContain(message);
    expect(answer.text).toContain('Bitte prüfen Sie Ihre Angaben');
    expect(answer.text).toMatch(/id="passwort"[^>]*aria-invalid="true"/);
    expect(answer.text).not.toContain(`value="${password}"`);
    expect(await writes(customer)).toEqual(NOTHING_WRITTEN);
    // The link stays open: the form works again with a good password.
    await submit(client, form, GOOD_PASSWORD).expect(200);
  });

  it('refuses two different entries (400) and marks the repetition', async () => {
    const { customer, token } = await customerWithLink('Mara', 'Mismatch');
    const client = newClient();
    const answer = await submit(client, await client.open(token), GOOD_PASSWORD, `${GOOD_PASSWORD}.`).expect(
      400,
    );
    expect(answer.text).toContain('Die beiden Eingaben stimmen nicht überein');
    expect(answer.text).toMatch(/id="passwort-wiederholung"[^>]*aria-invalid="true"/);
    expect(await writes(customer)).toEqual(NOTHING_WRITTEN);
  });

  it('refuses a form without the CSRF cookie, with another browser’s or page’s cookie or for another link (403)', async () => {
    const client = newClient();
    const { customer, token } = await customerWithLink('Carla', 'Cross');
    const form = await client.open(token);
    const otherBrowser = await newClient().open(token);
    const otherLink = await client.open(await insertSignatureLink(db, customer, { purpose: 'passwort' }));
    const signingPage = await customerPageClients(service, '/service/demo/unterschrift')().open(
      await insertSignatureLink(db, customer),
    );
    const fields = { password: GOOD_PASSWORD, repeat: GOOD_PASSWORD };
    const refusals = [
      await client.post({ ...fields, token, csrf: form.csrf }),
      await client.submit({ ...form, cookie: otherBrowser.cookie }, fields),
      await client.submit({ ...form, csrf: otherLink.csrf }, fields),
      await client.submit({ ...form, csrf: '' }, fields),
      await client.submit(
        { ...form, cookie: signingPage.cookie.replace('unterschrift_csrf', 'passwort_csrf') },
        fields,
      ),
      await client.submit({ ...form, cookie: signingPage.cookie, csrf: signingPage.csrf }, fields),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('Das Formular konnte nicht bestätigt werden');
    }
    expect(await writes(customer)).toEqual(NOTHING_WRITTEN);
  });

  it('answers unknown and malformed links with the 404 page, in HTML', async () => {
    const { customer } = await customerWithLink('Udo', 'Unbekannt');
    const passwordToken = await insertSignatureLink(db, customer, { purpose: 'passwort' });
    const signatureToken = await insertSignatureLink(db, customer);
    const client = newClient();
    for (const path of [
      PAGE,
      `${PAGE}?token=short`,
      `${PAGE}?token=${'A'.repeat(43)}`,
      `${PAGE}?token=${signatureToken}`,
      `/service/other/passwort-setzen?token=${passwordToken}`,
      `/passwort-setzen?token=${passwordToken}`,
    ]) {
      const answer = await client.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      if (path.startsWith('/service/')) expect(answer.text).toContain('Dieser Link ist ungültig');
    }
    await client.post({ token: 'nope', password: GOOD_PASSWORD, repeat: GOOD_PASSWORD }).expect(404);
    expect(await writes(customer)).toEqual(NOTHING_WRITTEN);
  });

  it('answers used and expired links with 410 pages, for showing and for setting', async () => {
    const client = newClient();
    const expired = await customerWithLink('Gerda', 'Gone');
    const expiredForm = await client.open(expired.token);
    await expireSignatureLink(db, expired.token);
    const expiredPage = await client.get(`${PAGE}?token=${expired.token}`).expect(410);
    expect(expiredPage.text).toContain('Dieser Link ist abgelaufen');
    expect(expiredPage.text).toContain('Bitte fordern Sie bei Ihrem Makler einen neuen Link an');
    const late = await submit(client, expiredForm, GOOD_PASSWORD).expect(410);
    expect(late.text).toContain('Dieser Link ist abgelaufen');
    expect(await writes(expired.customer)).toEqual(NOTHING_WRITTEN);

    const used = await customerWithLink('Ulf', 'Used');
    const usedForm = await client.open(used.token);
    await submit(client, usedForm, GOOD_PASSWORD).expect(200);
    const usedPage = await client.get(`${PAGE}?token=${used.token}`).expect(410);
    expect(usedPage.text).toContain('Dieser Link wurde bereits verwendet');
    expect(usedPage.headers['set-cookie']).toBeUndefined();
    await submit(client, usedForm, 'Leuchtturm Apfel Gitarre Moos').expect(410);
    expect(await verify(await storedHash(used.customer), GOOD_PASSWORD)).toBe(true);
  });

  it('lets exactly one of concurrent submits of one link set the password', async () => {
    const client = newClient();
    const { customer, token } = await customerWithLink('Rita', 'Rennen');
    const form = await client.open(token);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) => submit(client, form, `${GOOD_PASSWORD} ${index}`)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410, 410, 410]);
    expect(await writes(customer)).toEqual({ passwords: 1, audits: 1, used: 1 });
  });

  it('limits requests per client address to its own limit: 429 with Retry-After, others unaffected', async () => {
    const client = newClient();
    const { token } = await customerWithLink('Theo', 'Throttle');
    for (let count = 0; count < RATE_LIMIT; count++) await client.get(`${PAGE}?token=${token}`).expect(200);
    const refused = await client.get(`${PAGE}?token=${token}`).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.text).toContain('Zu viele Anfragen');
    await client.post({ token, password: GOOD_PASSWORD, repeat: GOOD_PASSWORD }).expect(429);
    await newClient().get(`${PAGE}?token=${token}`).expect(200);
  });

  it('answers other methods and paths under the page with its HTML 404 page', async () => {
    const server = request(service.app.getHttpServer() as App);
    for (const answer of [
      await server.put(PAGE),
      await server.delete(PAGE),
      await server.patch(PAGE),
      await server.get(`${PAGE}/xyz`),
      await server.get(`${PAGE}/assets/nothing.css`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('answers a body that is not a form with 415, setting nothing', async () => {
    const client = newClient();
    const { customer, token } = await customerWithLink('Jana', 'Json');
    const form = await client.open(token);
    const answer = await request(service.app.getHttpServer() as App)
      .post(PAGE)
      .set({ 'X-Forwarded-For': client.address, Cookie: form.cookie })
      .send({ token, csrf: form.csrf, password: GOOD_PASSWORD, repeat: GOOD_PASSWORD })
      .expect(415);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(await writes(customer)).toEqual(NOTHING_WRITTEN);
  });
});
