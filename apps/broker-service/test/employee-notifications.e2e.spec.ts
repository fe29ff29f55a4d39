import { createHash } from 'node:crypto';
import type { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { refusedByRule, TestMailServer, TestSmsGateway, waitFor } from '@broker/testing';
import { FIXTURE_API_CLIENTS, FIXTURE_EMPLOYEES } from './employee-fixture.js';
import { type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const tokenIn = (text: string) => /token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];

describe('employee service: notifications through a real SMTP server and an HTTP SMS gateway', () => {
  let service: EmployeeTestService;
  let mail: TestMailServer;
  let sms: TestSmsGateway;
  let db: Client;
  const path = (rest: string) => service.employeePath(rest);

  beforeAll(async () => {
    mail = await TestMailServer.start();
    sms = await TestSmsGateway.start();
    service = await startEmployeeTestService({
      SMTP_URL: mail.url,
      SMS_GATEWAY_URL: sms.url,
      CUSTOMER_BASE_URL: 'https://kunden.example',
      NOTIFY_SWEEP_INTERVAL_MS: '300',
    });
    db = service.db;
  });
  afterAll(async () => {
    await service?.close();
    await mail?.close();
    await sms?.close();
  });

  /** The outbox gauges at the service's /metrics. */
  async function outboxMetrics(): Promise<{ pending: number; oldestSeconds: number }> {
    const { text } = await request(service.app.getHttpServer() as App)
      .get('/metrics')
      .expect(200);
    const value = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
    return {
      pending: value('outbox_messages_pending'),
      oldestSeconds: value('outbox_oldest_pending_seconds'),
    };
  }

  const mailsTo = (address: string) => mail.mails.filter((message) => message.to.includes(address));

  async function addCustomer(email: string | null, mitteilungen: Record<string, boolean>) {
    const response = await service
      .call('post', path('/kunden'), {
        body: {
          Anrede: 'frau',
          Person: { Typ: 'natuerlich', Vorname: 'Maria', Nachname: 'Mail' },
          Kontaktdaten: email ? [{ Kontext: 'privat', Typ: 'email', Value: email }] : [],
          Mitteilungen: mitteilungen,
        },
      })
      .expect(200);
    return response.body as { Id: string; Benutzername: string };
  }

  it('sends the user name, a single-use password link and the initial information when Passwort is set', async () => {
    const customer = await addCustomer('maria@example.com', { Passwort: true });
    const mails = await waitFor(() => {
      const received = mailsTo('maria@example.com');
      return received.length === 3 ? received : undefined;
    });
    const bySubject = (start: string) => mails.find((message) => message.subject.startsWith(start))!;
    expect(bySubject('Ihr Zugang').text).toContain(
      `Ihr Benutzername für das Kundenportal lautet: ${customer.Benutzername}`,
    );
    expect(bySubject('Ihr Zugang').text).toContain('Sehr geehrte Frau Mail,');
    const passwordMail = bySubject('Passwort für Ihren Zugang');
    expect(passwordMail.text).toContain('https://kunden.example/service/demo/passwort-setzen?token=');
    const token = tokenIn(passwordMail.text)!;
    const stored = await db.query<{ purpose: string; hours: number; used_at: Date | null }>(
      `SELECT purpose, round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours, used_at
         FROM broker.customer_link_token WHERE token_sha256 = $1`,
      [sha256(token)],
    );
    expect(stored.rows).toEqual([{ purpose: 'passwort', hours: 72, used_at: null }]);
    expect(bySubject('Erstinformation').text).toContain('Versicherungsmakler mit Erlaubnis nach § 34d');
    const outbox = await db.query<{ kind: string; status: string }>(
      'SELECT kind, status FROM broker.outbox_message WHERE customer_id = $1 ORDER BY id',
      [customer.Id],
    );
    expect(outbox.rows).toEqual([
      { kind: 'benutzername', status: 'sent' },
      { kind: 'passwortlink', status: 'sent' },
      { kind: 'erstinfo', status: 'sent' },
    ]);
    // The token is stored nowhere in clear: the link token table holds its hash; the outbox held the link
    // encrypted and wiped it on delivery.
    const leaked = await db.query(
      `SELECT 1 FROM broker.customer_link_token WHERE token_sha256 = $1
       UNION ALL SELECT 1 FROM broker.outbox_message WHERE body LIKE '%' || $1 || '%' OR link_ciphertext IS NOT NULL`,
      [token],
    );
    expect(leaked.rowCount).toBe(0);
  });

  it('sends nothing when the initial information is suppressed and no message is asked for', async () => {
    const customer = await addCustomer('quiet@example.com', { ErstinfoUnterbinden: true });
    const outbox = await db.query('SELECT 1 FROM broker.outbox_message WHERE customer_id = $1', [
      customer.Id,
    ]);
    expect(outbox.rowCount).toBe(0);
  });

  it('refuses messages asked for without an e-mail address, writing nothing', async () => {
    const before = await db.query('SELECT count(*)::int AS n FROM broker.customer');
    const response = await refusedByRule(
      service.call('post', path('/kunden'), {
        body: { Person: { Typ: 'natuerlich', Nachname: 'Ohne' }, Mitteilungen: { Benutzername: true } },
      }),
    ).expect(400);
    expect(response.body).toEqual({
      Meldungen: [expect.stringContaining('add a Kontaktdaten entry of Typ email')],
    });
    expect((await db.query('SELECT count(*)::int AS n FROM broker.customer')).rows).toEqual(before.rows);
  });

  it('sends a signature link by e-mail to the standard address (GET with a body, customer in KundeId)', async () => {
    const customer = await addCustomer('sign@example.com', { ErstinfoUnterbinden: true });
    const response = await service
      .call('get', path('/kunden/unterschriftenlinks/_senden'), {
        body: { Art: 'maklervollmacht', Kommunikationsweg: 'email', KundeId: customer.Id },
      })
      .expect(200);
    expect(response.body).toEqual({
      Meldungen: ['Der Unterschriftenlink wurde zum Versand per E-Mail an s***@example.com eingereiht'],
    });
    const [message] = await waitFor(() => {
      const received = mailsTo('sign@example.com');
      return received.length > 0 ? received : undefined;
    });
    const token = tokenIn(message.text)!;
    expect(message.text).toContain('https://kunden.example/service/demo/unterschrift?token=');
    const stored = await db.query<{ purpose: string; hours: number }>(
      `SELECT purpose, round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours
         FROM broker.customer_link_token WHERE token_sha256 = $1`,
      [sha256(token)],
    );
    expect(stored.rows).toEqual([{ purpose: 'maklervollmacht', hours: 336 }]);
  });

  it('sends a signature link by SMS to another number (POST on the path with the customer id)', async () => {
    const customer = await addCustomer(null, { ErstinfoUnterbinden: true });
    const response = await service
      .call('post', path(`/kunden/${customer.Id}/unterschriftenlinks/_senden`), {
        body: { Art: 'maklervollmacht', Kommunikationsweg: 'sms', Kommunikationsadresse: '+49 171 7654321' },
      })
      .expect(200);
    expect(response.body).toEqual({
      Meldungen: ['Der Unterschriftenlink wurde zum Versand per SMS an ***4321 eingereiht'],
    });
    // The gateway gets the number in E.164.
    const received = await waitFor(() => sms.messages.find((message) => message.to === '+491717654321'));
    expect(received.text).toMatch(
      /^Muster Makler GmbH: Bitte unterschreiben Sie Ihre Maklervollmacht: https:\/\/kunden\.example\/service\/demo\/unterschrift\?token=/,
    );
  });

  it.each([
    [
      { Art: 'maklervollmacht', Kommunikationsweg: 'brieftaube', KundeId: '1' },
      'Kommunikationsweg must be one of the following values',
    ],
    [
      { Art: 'kaufvertrag', Kommunikationsweg: 'email', KundeId: '1' },
      'Art must be one of the following values',
    ],
    [{ Art: 'maklervollmacht', Kommunikationsweg: 'email' }, 'KundeId is required on this path'],
    [{ Art: 'maklervollmacht', Kommunikationsweg: 'email', KundeId: 'x' }, 'KundeId must be a customer id'],
  ])('refuses the order %j with 400', async (body, message) => {
    const response = await refusedByRule(
      service.call('post', path('/kunden/unterschriftenlinks/_senden'), { body }),
    ).expect(400);
    expect((response.body as { Meldungen: string[] }).Meldungen.join(' | ')).toContain(message);
  });

  it('sends to a national number in E.164, and refuses a number no SMS can go to at the request (400)', async () => {
    const customer = await addCustomer(null, { ErstinfoUnterbinden: true });
    const order = (number: string) => ({
      body: {
        Art: 'maklervollmacht',
        Kommunikationsweg: 'sms',
        Kommunikationsadresse: number,
        KundeId: customer.Id,
      },
    });
    await service
      .call('post', path('/kunden/unterschriftenlinks/_senden'), order('0171 2223334'))
      .expect(200);
    await waitFor(() => sms.messages.find((message) => message.to === '+491712223334'));
    const outbox = async () =>
      Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM broker.outbox_message')).rows[0].n);
    const before = await outbox();
    // Too short, premium-rate, fixed-line, with an extension, with text after it.
    for (const number of [
      '0171 22',
      '0900 1234567',
      '030 123456',
      '+49 171 7654321 ext. 99',
      '01712345678abc',
    ]) {
      const refused = await refusedByRule(
        service.call('post', path('/kunden/unterschriftenlinks/_senden'), order(number)),
      ).expect(400);
      expect(refused.body).toEqual({
        Meldungen: [expect.stringContaining(`Kommunikationsadresse "${number}" is not a`)],
      });
    }
    expect(await outbox()).toBe(before);
  });

  it('refuses a customer without a mobile number, and a recipient that is no address, with 400', async () => {
    const customer = await addCustomer('nomobile@example.com', { ErstinfoUnterbinden: true });
    const order = { Art: 'maklervollmacht', Kommunikationsweg: 'sms', KundeId: customer.Id };
    expect(
      (
        await refusedByRule(
          service.call('post', path('/kunden/unterschriftenlinks/_senden'), { body: order }),
        ).expect(400)
      ).body,
    ).toEqual({
      Meldungen: [`Customer ${customer.Id} has no mobile number; send Kommunikationsadresse`],
    });
    await refusedByRule(
      service.call('post', path('/kunden/unterschriftenlinks/_senden'), {
        body: { ...order, Kommunikationsweg: 'email', Kommunikationsadresse: 'kein-mail' },
      }),
    ).expect(400);
  });

  it('answers a signature link for a customer of another broker tree with 404', async () => {
    const response = await service
      .call('post', service.employeePath('/kunden/unterschriftenlinks/_senden', FIXTURE_EMPLOYEES.other), {
        client: FIXTURE_API_CLIENTS.other,
        body: {
          Art: 'maklervollmacht',
          Kommunikationsweg: 'email',
          KundeId: service.customers.v1000Customer,
        },
      })
      .expect(404);
    expect(response.body).toEqual({
      Meldungen: [`Customer ${service.customers.v1000Customer} does not exist`],
    });
  });

  it('keeps a message while the mail server is down and delivers it once it is back', async () => {
    await mail.close();
    const customer = await addCustomer('later@example.com', {});
    await waitFor(async () => {
      const { rows } = await db.query<{ attempts: number; status: string }>(
        'SELECT attempts, status FROM broker.outbox_message WHERE customer_id = $1',
        [customer.Id],
      );
      return rows[0] && rows[0].attempts > 0 && rows[0].status === 'pending' ? rows[0] : undefined;
    });
    const waiting = await outboxMetrics();
    expect(waiting.pending).toBeGreaterThanOrEqual(1);
    expect(waiting.oldestSeconds).toBeGreaterThan(0);
    await mail.listen();
    const delivered = await waitFor(() => mailsTo('later@example.com')[0], 20_000);
    expect(delivered.subject).toContain('Erstinformation');
    const { rows } = await db.query<{ status: string }>(
      'SELECT status FROM broker.outbox_message WHERE customer_id = $1',
      [customer.Id],
    );
    expect(rows).toEqual([{ status: 'sent' }]);
    const { rows: pending } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM broker.outbox_message WHERE status = 'pending'`,
    );
    // A second later: one scrape's reading is reused for a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await outboxMetrics()).pending).toBe(pending[0].n);
  }, 30_000);

  it('ends a message the gateway refuses for good as failed, without retrying it', async () => {
    const customer = await addCustomer(null, { ErstinfoUnterbinden: true });
    sms.failNext = 1;
    sms.failStatus = 400;
    await service
      .call('post', path(`/kunden/${customer.Id}/unterschriftenlinks/_senden`), {
        body: { Art: 'maklervollmacht', Kommunikationsweg: 'sms', Kommunikationsadresse: '+49 160 9998887' },
      })
      .expect(200);
    const failed = await waitFor(async () => {
      const { rows } = await db.query<{
        status: string;
        attempts: number;
        last_error: string;
        link: string | null;
      }>(
        `SELECT status, attempts, last_error, link_ciphertext AS link FROM broker.outbox_message
          WHERE customer_id = $1`,
        [customer.Id],
      );
      return rows[0]?.status === 'failed' ? rows[0] : undefined;
    });
    expect(failed).toEqual({
      status: 'failed',
      attempts: 1,
      last_error: 'SMS gateway refused: 400',
      link: null,
    });
    sms.failStatus = 503;
  });

  it('refuses a KundeId in the body that is not the customer of the path', async () => {
    const customer = await addCustomer('path@example.com', { ErstinfoUnterbinden: true });
    const response = await refusedByRule(
      service.call('post', path(`/kunden/${customer.Id}/unterschriftenlinks/_senden`), {
        body: {
          Art: 'maklervollmacht',
          Kommunikationsweg: 'email',
          KundeId: service.customers.v1000Customer,
        },
      }),
    ).expect(400);
    expect(response.body).toEqual({
      Meldungen: [
        `KundeId ${service.customers.v1000Customer} is not the customer ${customer.Id} of the path`,
      ],
    });
  });

  it('retries an SMS the gateway refused', async () => {
    const customer = await addCustomer(null, { ErstinfoUnterbinden: true });
    sms.failNext = 1;
    await service
      .call('post', path(`/kunden/${customer.Id}/unterschriftenlinks/_senden`), {
        body: { Art: 'maklervollmacht', Kommunikationsweg: 'sms', Kommunikationsadresse: '+49 160 1112223' },
      })
      .expect(200);
    await waitFor(() => sms.messages.find((message) => message.to === '+491601112223'), 20_000);
    expect(sms.failNext).toBe(0);
  }, 30_000);
});
