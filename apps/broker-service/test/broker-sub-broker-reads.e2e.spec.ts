import request from 'supertest';
import type { App } from 'supertest/types.js';
import { refusedByRule } from '@broker/testing';
import { FIXTURE_API_CLIENTS, svcDigestHeaders } from './employee-fixture.js';
import { BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { answerParts, asBuffer, multipartBody, multipartType, part } from './multipart.js';

interface View {
  Vermittler: string;
  Uebervermittler: string | null;
  Name: string;
  Adresse: { Strasse: string | null; PLZ: string | null; Ort: string | null };
  Kommunikationsdaten: Record<string, string | null>;
}

/**
 * The broker service's sub-broker creation and broker information (named by the spec, endpoints not shown):
 * createUntervermittler, getVermittler and listUntervermittler, by the header group and inside a multi-call.
 */
describe('broker service: createUntervermittler, getVermittler, listUntervermittler', () => {
  let service: EmployeeTestService;
  const vermittler = `${BROKER_BASE}/vermittler`;

  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(() => service?.close());

  const numbers = (body: unknown) => (body as View[]).map((view) => view.Vermittler);

  it('creates a sub-broker below the caller’s broker: 201 with Location, its data, and an audit event', async () => {
    const created = await service
      .call('post', vermittler, {
        body: {
          Vermittlernummer: 'V1010',
          Name: 'Neu Makler',
          Adresse: { Strasse: 'Neuer Weg 1', PLZ: '50667', Ort: 'Köln' },
          Email: 'neu@makler.example',
        },
      })
      .expect(201);
    expect(created.headers.location).toBe(`${vermittler}/V1010`);
    expect(created.body).toEqual({
      Vermittler: 'V1010',
      Uebervermittler: 'V1000',
      Name: 'Neu Makler',
      Namenszusatz: null,
      Adresse: { Strasse: 'Neuer Weg 1', PLZ: '50667', Ort: 'Köln' },
      Kommunikationsdaten: { Email: 'neu@makler.example', Telefon: null, Mobil: null, Fax: null },
      Website: null,
      Impressum: null,
    });
    const { rows } = await service.db.query(
      `SELECT actor_kind, actor, action, target, details FROM broker.audit_event WHERE target = 'brokers/V1010'`,
    );
    expect(rows).toEqual([
      {
        actor_kind: 'api-client',
        actor: FIXTURE_API_CLIENTS.main.apiId,
        action: 'createUntervermittler',
        target: 'brokers/V1010',
        details: expect.objectContaining({
          number: 'V1010',
          parent: 'V1000',
          street: 'Neuer Weg 1',
          email: 'neu@makler.example',
        }),
      },
    ]);
  });

  it('creates below one of the caller’s sub-brokers, never below another broker’s, and never twice', async () => {
    const below = await service
      .call('post', vermittler, {
        body: { Vermittlernummer: 'V1011', Name: 'Tief', Uebervermittler: 'V1003' },
      })
      .expect(201);
    expect(below.body).toMatchObject({ Vermittler: 'V1011', Uebervermittler: 'V1003' });
    const foreign = await refusedByRule(
      service.call('post', vermittler, {
        body: { Vermittlernummer: 'V1012', Name: 'X', Uebervermittler: 'V2000' },
      }),
    ).expect(400);
    expect(foreign.body).toEqual({
      Meldungen: ['Uebervermittler V2000 is neither you nor a broker below you'],
    });
    const taken = await refusedByRule(
      service.call('post', vermittler, { body: { Vermittlernummer: 'V2000', Name: 'Schon da' } }),
    ).expect(400);
    expect(taken.body).toEqual({ Meldungen: ['Vermittlernummer V2000 is already taken'] });
    await service.call('post', vermittler, { body: { Vermittlernummer: 'V1012' } }).expect(400);
    await service.call('post', vermittler, { body: { Vermittlernummer: 'V 1012', Name: 'X' } }).expect(400);
    await service
      .call('post', vermittler, { body: { Vermittlernummer: 'V1012', Name: 'X', PLZ: '123' } })
      .expect(400);
    await service
      .call('post', vermittler, { body: { Vermittlernummer: 'V1012', Name: 'X', blocked: true } })
      .expect(400);
    const none = await service.db.query("SELECT 1 FROM broker.broker WHERE broker_number = 'V1012'");
    expect(none.rows).toEqual([]);
  });

  it('refuses a blocked client and answers an unknown API id 404', async () => {
    await service
      .call('post', vermittler, {
        body: { Vermittlernummer: 'V1013', Name: 'X' },
        client: FIXTURE_API_CLIENTS.blockedClient,
      })
      .expect(403);
    await service
      .call('get', `${vermittler}/V1000`, { client: { apiId: 'unbekannt', apiKey: 'unbekannt-key' } })
      .expect(404);
  });

  it('reads the caller’s own broker and its sub-brokers, and answers another broker’s 404', async () => {
    const own = await service.call('get', `${vermittler}/V1000`).expect(200);
    expect(own.body).toMatchObject({
      Vermittler: 'V1000',
      Uebervermittler: null,
      Name: 'Muster Makler GmbH',
    });
    expect(own.headers['last-modified']).toBeDefined();
    const sub = await service.call('get', `${vermittler}/V1003`).expect(200);
    expect(sub.body).toMatchObject({ Vermittler: 'V1003', Uebervermittler: 'V1001' });
    const foreign = await service.call('get', `${vermittler}/V2000`).expect(404);
    expect(foreign.body).toEqual({ Meldungen: ['Vermittler V2000 does not exist'] });
    await service.call('get', `${vermittler}/V1000`, { client: FIXTURE_API_CLIENTS.other }).expect(404);
    await service
      .call('get', `${vermittler}/V1000`, { headers: { 'If-Modified-Since': own.headers['last-modified'] } })
      .expect(304);
  });

  it('reads a sub-broker back after updateUntervermittler changed it', async () => {
    await service
      .call('patch', `${vermittler}/V1002`, { body: { Ort: 'Augsburg', Telefon: '' } })
      .expect(200);
    const read = await service.call('get', `${vermittler}/V1002`).expect(200);
    expect(read.body).toMatchObject({ Adresse: { Ort: 'Augsburg' }, Kommunikationsdaten: { Telefon: null } });
  });

  it('lists the brokers below the caller’s, paged with X-Svc-Total, revalidated with Last-Modified', async () => {
    const all = await service.call('get', vermittler).expect(200);
    expect(numbers(all.body)).toEqual(['V1001', 'V1002', 'V1003', 'V1010', 'V1011']);
    expect(all.headers['x-svc-total']).toBe('5');
    expect(all.headers['cache-control']).toBe('private, must-revalidate, max-age=3600');
    const page = await service.call('get', `${vermittler}?from=1&size=2`).expect(200);
    expect(numbers(page.body)).toEqual(['V1002', 'V1003']);
    expect(page.headers['x-svc-total']).toBe('5');
    await service.call('get', `${vermittler}?size=1000`).expect(400);
    const other = await service.call('get', vermittler, { client: FIXTURE_API_CLIENTS.other }).expect(200);
    expect(other.body).toEqual([]);
    const since = all.headers['last-modified'];
    await service.call('get', vermittler, { headers: { 'If-Modified-Since': since } }).expect(304);
  });

  it('tells a list that changed: a broker moved out of the caller’s tree', async () => {
    const before = await service.call('get', vermittler).expect(200);
    // An operator moves V1011 away (a second later, so the HTTP date differs).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await service.db.query(
      "UPDATE broker.broker SET parent_id = (SELECT id FROM broker.broker WHERE broker_number = 'V2000') WHERE broker_number = 'V1011'",
    );
    const after = await service
      .call('get', vermittler, { headers: { 'If-Modified-Since': before.headers['last-modified'] } })
      .expect(200);
    expect(numbers(after.body)).not.toContain('V1011');
  });

  it('works inside a multi-call: create, read and list, and another broker’s sub-broker is a 404 part', async () => {
    const response = await asBuffer(
      request(service.app.getHttpServer() as App)
        .post(BROKER_BASE)
        .set(svcDigestHeaders(FIXTURE_API_CLIENTS.main))
        .set('Content-Type', multipartType())
        .send(
          multipartBody([
            part('<part-1>', 'POST', '/vermittler', { Vermittlernummer: 'V1020', Name: 'Im Stapel' }),
            part('<part-2>', 'GET', '/vermittler/V1020'),
            part('<part-3>', 'GET', '/vermittler?size=50'),
            part('<part-4>', 'GET', '/vermittler/V2000'),
          ]),
        ),
    ).expect(200);
    const parts = answerParts(response.headers['content-type'], response.body as Buffer);
    expect(parts.map((answer) => answer.status)).toEqual([201, 200, 200, 404]);
    expect(parts[0].headers.location).toBe(`${BROKER_BASE}/vermittler/V1020`);
    expect(parts[1].json()).toMatchObject({ Vermittler: 'V1020', Uebervermittler: 'V1000' });
    expect(numbers(parts[2].json())).toContain('V1020');
    expect(parts[2].headers['x-svc-total']).toBe('5');
  });
});
