import type { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { refusedByRule } from '@broker/testing';
import { FIXTURE_API_CLIENTS } from './employee-fixture.js';
import { BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

/** The broker columns updateUntervermittler writes, as the test reads them back. */
interface BrokerRow {
  parent: string | null;
  name: string;
  name_suffix: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  fax: string | null;
  website: string | null;
  imprint: string | null;
}

/** The fixture's sub-brokers of V1000 as insertBrokerFixture creates them: number, superior, name. */
const FIXTURE_SUB_BROKERS = [
  ['V1001', 'V1000', 'Nord Versicherungsmakler'],
  ['V1002', 'V1000', 'Süd Finanzberatung'],
  ['V1003', 'V1001', 'Hafen Assekuranz'],
] as const;

const CLEARED = {
  name_suffix: null,
  street: null,
  postal_code: null,
  city: null,
  email: null,
  phone: null,
  mobile: null,
  fax: null,
  website: null,
  imprint: null,
};

/** A full record, sent flat. */
const FULL_FLAT = {
  Name: 'Nord Makler GmbH',
  Namenszusatz: 'Zweigstelle Kiel',
  Strasse: 'Hafenstraße 1',
  PLZ: '24103',
  Ort: 'Kiel',
  Email: 'info@nord-makler.de',
  Telefon: '+49 431 123456',
  Mobil: '0171 1234567',
  Fax: '0431/123457',
  Website: 'https://www.nord-makler.de',
  Impressum: 'Nord Makler GmbH, Hafenstraße 1, 24103 Kiel',
};

describe('broker service: updateUntervermittler (PATCH {base}/vermittler/{vmt})', () => {
  let service: EmployeeTestService;
  let db: Client;
  const path = (broker: string) => `${BROKER_BASE}/vermittler/${broker}`;
  const patch = (broker: string, body: unknown, client = FIXTURE_API_CLIENTS.main) =>
    service.call('patch', path(broker), { body, client });

  async function row(broker: string): Promise<BrokerRow> {
    const result = await db.query<BrokerRow>(
      `SELECT p.broker_number AS parent, b.name, b.name_suffix, b.street, b.postal_code, b.city, b.email,
              b.phone, b.mobile, b.fax, b.website, b.imprint
         FROM broker.broker b LEFT JOIN broker.broker p ON p.id = b.parent_id
        WHERE b.broker_number = $1`,
      [broker],
    );
    return result.rows[0];
  }

  /** Every broker's row, to show that a refused request changed nothing. */
  async function allRows(): Promise<unknown[]> {
    const result = await db.query<Record<string, unknown>>(
      `SELECT broker_number, parent_id, name, name_suffix, street, postal_code, city, email, phone, mobile, fax,
              website, imprint, updated_at FROM broker.broker ORDER BY broker_number`,
    );
    return result.rows;
  }

  beforeAll(async () => {
    service = await startEmployeeTestService();
    db = service.db;
  });
  afterAll(async () => {
    await service?.close();
  });

  /** Back to the fixture's hierarchy and data, so every test starts from it. */
  beforeEach(async () => {
    await db.query(
      `UPDATE broker.broker b
          SET parent_id = p.id, name = f.name, name_suffix = NULL, street = NULL, postal_code = NULL, city = NULL,
              email = NULL, phone = NULL, mobile = NULL, fax = NULL, website = NULL, imprint = NULL
         FROM (SELECT * FROM unnest($1::text[], $2::text[], $3::text[])) AS f(number, parent, name)
         JOIN broker.broker p ON p.broker_number = f.parent
        WHERE b.broker_number = f.number`,
      [0, 1, 2].map((column) => FIXTURE_SUB_BROKERS.map((broker) => broker[column])),
    );
  });

  describe('fields', () => {
    it('changes the fields given flat and answers the record as stored, in the nested form', async () => {
      const response = await patch('V1001', FULL_FLAT).expect(200);
      expect(response.body).toEqual({
        Vermittler: 'V1001',
        Uebervermittler: 'V1000',
        Name: 'Nord Makler GmbH',
        Namenszusatz: 'Zweigstelle Kiel',
        Adresse: { Strasse: 'Hafenstraße 1', PLZ: '24103', Ort: 'Kiel' },
        Kommunikationsdaten: {
          Email: 'info@nord-makler.de',
          Telefon: '+49 431 123456',
          Mobil: '0171 1234567',
          Fax: '0431/123457',
        },
        Website: 'https://www.nord-makler.de',
        Impressum: 'Nord Makler GmbH, Hafenstraße 1, 24103 Kiel',
      });
      expect(await row('V1001')).toEqual({
        parent: 'V1000',
        name: 'Nord Makler GmbH',
        name_suffix: 'Zweigstelle Kiel',
        street: 'Hafenstraße 1',
        postal_code: '24103',
        city: 'Kiel',
        email: 'info@nord-makler.de',
        phone: '+49 431 123456',
        mobile: '0171 1234567',
        fax: '0431/123457',
        website: 'https://www.nord-makler.de',
        imprint: 'Nord Makler GmbH, Hafenstraße 1, 24103 Kiel',
      });
      // Nothing else changed.
      expect(await row('V1002')).toEqual({ parent: 'V1000', name: 'Süd Finanzberatung', ...CLEARED });
    });

    it('changes the fields given nested under Adresse and Kommunikationsdaten', async () => {
      const response = await patch('V1002', {
        Adresse: { Strasse: 'Domplatz 2', PLZ: '80331', Ort: 'München' },
        Kommunikationsdaten: {
          Email: 'sued@example.de',
          Telefon: '089 1234',
          Mobil: '+49 160 999',
          Fax: '089 1235',
        },
      }).expect(200);
      expect(response.body).toEqual({
        Vermittler: 'V1002',
        Uebervermittler: 'V1000',
        Name: 'Süd Finanzberatung',
        Namenszusatz: null,
        Adresse: { Strasse: 'Domplatz 2', PLZ: '80331', Ort: 'München' },
        Kommunikationsdaten: {
          Email: 'sued@example.de',
          Telefon: '089 1234',
          Mobil: '+49 160 999',
          Fax: '089 1235',
        },
        Website: null,
        Impressum: null,
      });
      expect(await row('V1002')).toEqual({
        ...CLEARED,
        parent: 'V1000',
        name: 'Süd Finanzberatung',
        street: 'Domplatz 2',
        postal_code: '80331',
        city: 'München',
        email: 'sued@example.de',
        phone: '089 1234',
        mobile: '+49 160 999',
        fax: '089 1235',
      });
    });

    it('keeps the fields it omits', async () => {
      await patch('V1001', FULL_FLAT).expect(200);
      const response = await patch('V1001', {
        Ort: 'Lübeck',
        Kommunikationsdaten: { Fax: '0451 777' },
      }).expect(200);
      expect(response.body).toMatchObject({
        Name: 'Nord Makler GmbH',
        Namenszusatz: 'Zweigstelle Kiel',
        Adresse: { Strasse: 'Hafenstraße 1', PLZ: '24103', Ort: 'Lübeck' },
        Kommunikationsdaten: {
          Email: 'info@nord-makler.de',
          Telefon: '+49 431 123456',
          Mobil: '0171 1234567',
          Fax: '0451 777',
        },
        Website: 'https://www.nord-makler.de',
        Impressum: 'Nord Makler GmbH, Hafenstraße 1, 24103 Kiel',
      });
      expect(await row('V1001')).toMatchObject({ city: 'Lübeck', fax: '0451 777', street: 'Hafenstraße 1' });
    });

    it('answers the record unchanged for an empty body', async () => {
      await patch('V1001', FULL_FLAT).expect(200);
      const before = await allRows();
      const response = await patch('V1001', {}).expect(200);
      expect(response.body).toMatchObject({
        Vermittler: 'V1001',
        Name: 'Nord Makler GmbH',
        Website: FULL_FLAT.Website,
      });
      expect(await allRows()).toEqual(before);
    });

    it('clears the fields given as "" or null, flat or nested', async () => {
      await patch('V1001', FULL_FLAT).expect(200);
      const response = await patch('V1001', {
        Namenszusatz: '',
        Strasse: null,
        Adresse: { PLZ: '' },
        Kommunikationsdaten: { Email: null, Telefon: '' },
        Fax: null,
        Website: '',
        Impressum: null,
      }).expect(200);
      expect(response.body).toEqual({
        Vermittler: 'V1001',
        Uebervermittler: 'V1000',
        Name: 'Nord Makler GmbH',
        Namenszusatz: null,
        Adresse: { Strasse: null, PLZ: null, Ort: 'Kiel' },
        Kommunikationsdaten: { Email: null, Telefon: null, Mobil: '0171 1234567', Fax: null },
        Website: null,
        Impressum: null,
      });
      expect(await row('V1001')).toEqual({
        ...CLEARED,
        parent: 'V1000',
        name: 'Nord Makler GmbH',
        city: 'Kiel',
        mobile: '0171 1234567',
      });
    });

    it('clears a field given as blank, with or without a format', async () => {
      await patch('V1001', FULL_FLAT).expect(200);
      const response = await patch('V1001', {
        Ort: '   ',
        Namenszusatz: ' ',
        PLZ: ' ',
        Website: '  ',
        Kommunikationsdaten: { Email: ' ', Fax: '\t' },
      }).expect(200);
      expect(response.body).toMatchObject({
        Namenszusatz: null,
        Adresse: { Ort: null, PLZ: null },
        Kommunikationsdaten: { Email: null, Fax: null },
        Website: null,
      });
      expect(await row('V1001')).toMatchObject({
        city: null,
        name_suffix: null,
        postal_code: null,
        email: null,
        fax: null,
        website: null,
      });
    });

    it('accepts a field given flat and nested with the same value', async () => {
      const response = await patch('V1003', {
        PLZ: '20095',
        Adresse: { PLZ: '20095', Ort: 'Hamburg' },
        Email: 'hafen@example.de',
        Kommunikationsdaten: { Email: 'hafen@example.de' },
      }).expect(200);
      expect(response.body).toMatchObject({
        Adresse: { Strasse: null, PLZ: '20095', Ort: 'Hamburg' },
        Kommunikationsdaten: { Email: 'hafen@example.de' },
      });
      expect(await row('V1003')).toMatchObject({
        postal_code: '20095',
        city: 'Hamburg',
        email: 'hafen@example.de',
      });
    });

    it.each([
      [{ PLZ: '20095', Adresse: { PLZ: '20097' } }, 'PLZ is given flat and nested with different values'],
      [
        { Ort: 'Hamburg', Telefon: '040 111', Kommunikationsdaten: { Telefon: '040 222' } },
        'Telefon is given flat and nested with different values',
      ],
      [{ Email: 'a@example.de', Kommunikationsdaten: { Email: '' } }, 'Email is given flat and nested'],
    ])(
      'refuses %j, a field given flat and nested with different values, changing nothing',
      async (body, message) => {
        const before = await allRows();
        const response = await refusedByRule(patch('V1003', body)).expect(400);
        expect((response.body as { Meldungen: string[] }).Meldungen.join(' | ')).toContain(message);
        expect(await allRows()).toEqual(before);
      },
    );
  });

  describe('validation', () => {
    it.each([
      [{ Email: 'keine-adresse' }, 'Email must be an e-mail address'],
      [{ Email: 'a b@example.de' }, 'Email must be an e-mail address'],
      [{ Kommunikationsdaten: { Email: 'x@' } }, 'Kommunikationsdaten.Email must be an e-mail address'],
      [{ PLZ: '1234' }, 'PLZ must be a postal code of five digits'],
      [{ PLZ: '1234a' }, 'PLZ must be a postal code of five digits'],
      [{ PLZ: '123456' }, 'PLZ must be'],
      [{ PLZ: 12345 }, 'PLZ must be a string'],
      [{ Adresse: { PLZ: '99' } }, 'Adresse.PLZ must be a postal code of five digits'],
      [{ Website: 'keine website' }, 'Website must be a web address'],
      [{ Website: 'localhost' }, 'Website must be a web address'],
      [{ Adresse: [{ Ort: 'Bremen' }] }, 'Adresse must be an object'],
      [{ Kommunikationsdaten: 'a@b.de' }, 'Kommunikationsdaten must be an object'],
      [{ Website: "javascript:window.location='//evil.example'" }, 'Website must be a web address'],
      [{ Website: 'ftp://files.example.de' }, 'Website must be a web address'],
      [{ Telefon: 'abc' }, 'Telefon must be a telephone number'],
      [{ Mobil: '12' }, 'Mobil must be a telephone number'],
      [
        { Kommunikationsdaten: { Fax: 'Fax: 0511 1234' } },
        'Kommunikationsdaten.Fax must be a telephone number',
      ],
      [{ Name: '' }, 'Name cannot be cleared'],
      [{ Name: '   ' }, 'Name cannot be cleared'],
      [{ Name: null }, 'Name cannot be cleared'],
      [{ Name: 'X'.repeat(101) }, 'Name must be shorter than or equal to 100 characters'],
      [{ Farbe: 'blau' }, 'property Farbe should not exist'],
      [{ Vermittler: 'V1009' }, 'Vermittler V1009 is not V1001, the broker of the path'],
      [{ Adresse: { Land: 'DE' } }, 'property Adresse.Land should not exist'],
      [{ Adresse: 'Hafenstraße 1' }, 'Adresse'],
      [{ Uebervermittler: '' }, 'Uebervermittler cannot be cleared'],
      [{ Uebervermittler: null }, 'Uebervermittler cannot be cleared'],
      [{ Ort: 'Kiel', Email: 'falsch' }, 'Email must be an e-mail address'],
    ])('refuses %j with 400 naming the field, changing nothing', async (body, message) => {
      const before = await allRows();
      const response = await refusedByRule(patch('V1001', body)).expect(400);
      const messages = (response.body as { Meldungen: string[] }).Meldungen;
      expect(messages).toEqual(expect.arrayContaining([expect.any(String)]));
      expect(messages.join(' | ')).toContain(message);
      expect(await allRows()).toEqual(before);
    });

    it('refuses malformed JSON with 400, never a 5xx', async () => {
      const response = await service
        .call('patch', path('V1001'), { headers: { 'Content-Type': 'application/json' } })
        .send('{"Name": ')
        .expect(400);
      expect(response.body).toEqual({ Meldungen: [expect.any(String)] });
    });

    it.each([['[]'], ['[{"Name": "Liste"}]'], ['"Name"'], ['null'], ['42']])(
      'refuses the JSON body %s, not an object, with 400',
      async (body) => {
        const before = await allRows();
        const response = await service
          .call('patch', path('V1001'), { headers: { 'Content-Type': 'application/json' } })
          .send(body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ Meldungen: expect.arrayContaining([expect.any(String)]) });
        expect(await allRows()).toEqual(before);
      },
    );

    it('refuses a request without the header group with 400', async () => {
      // The header group is the document's security scheme, not a parameter the request check reads.
      const response = await refusedByRule(
        request(service.app.getHttpServer() as App)
          .patch(path('V1001'))
          .send({ Name: 'Anonym' }),
      ).expect(400);
      expect(response.body).toEqual({ Meldungen: expect.arrayContaining([expect.any(String)]) });
      expect((await row('V1001')).name).toBe('Nord Versicherungsmakler');
    });
  });

  describe('hierarchy', () => {
    it.each([['V1001'], ['V1002'], ['V1003']])('lets V1000 edit %s, below it', async (broker) => {
      const response = await patch(broker, { Namenszusatz: `Filiale ${broker}` }).expect(200);
      expect(response.body).toMatchObject({ Vermittler: broker, Namenszusatz: `Filiale ${broker}` });
      expect((await row(broker)).name_suffix).toBe(`Filiale ${broker}`);
    });

    it.each([
      ['V1000', 'the caller itself'],
      ['V2000', 'an unrelated broker'],
      ['V1900', 'a blocked broker outside the hierarchy'],
      ['V9999', 'a broker that does not exist'],
    ])('answers 404 for %s (%s), changing nothing', async (broker) => {
      const before = await allRows();
      const response = await patch(broker, { Namenszusatz: 'gehackt' }).expect(404);
      expect(response.body).toEqual({ Meldungen: [`Vermittler ${broker} does not exist`] });
      expect(await allRows()).toEqual(before);
    });

    it('answers 404 to V2000 for V1001, outside its hierarchy', async () => {
      const before = await allRows();
      const response = await patch('V1001', { Name: 'Übernommen' }, FIXTURE_API_CLIENTS.other).expect(404);
      expect(response.body).toEqual({ Meldungen: ['Vermittler V1001 does not exist'] });
      expect(await allRows()).toEqual(before);
    });

    it('answers 404 rather than 400 for an invisible broker even with a move', async () => {
      const response = await patch('V2000', { Uebervermittler: 'V1000' }).expect(404);
      expect(response.body).toEqual({ Meldungen: ['Vermittler V2000 does not exist'] });
      expect((await row('V2000')).parent).toBeNull();
    });
  });

  describe('moves (Uebervermittler)', () => {
    it('moves V1003 under V1002', async () => {
      const response = await patch('V1003', { Uebervermittler: 'V1002' }).expect(200);
      expect(response.body).toMatchObject({ Vermittler: 'V1003', Uebervermittler: 'V1002' });
      expect((await row('V1003')).parent).toBe('V1002');
      // Still editable by V1000 from its new place.
      await patch('V1003', { Ort: 'Bremen' }).expect(200);
    });

    it('moves V1003 directly under the caller, V1000', async () => {
      const response = await patch('V1003', { Uebervermittler: 'V1000', Ort: 'Bremen' }).expect(200);
      expect(response.body).toMatchObject({
        Vermittler: 'V1003',
        Uebervermittler: 'V1000',
        Adresse: { Ort: 'Bremen' },
      });
      expect(await row('V1003')).toMatchObject({ parent: 'V1000', city: 'Bremen' });
      const audit = await db.query<{ actor_kind: string; actor: string; details: object }>(
        `SELECT actor_kind, actor, details FROM broker.audit_event
          WHERE action = 'updateUntervermittler' AND target = 'brokers/V1003' ORDER BY id DESC LIMIT 1`,
      );
      expect(audit.rows).toEqual([
        {
          actor_kind: 'api-client',
          actor: FIXTURE_API_CLIENTS.main.apiId,
          details: { parent: 'V1000', city: 'Bremen' },
        },
      ]);
    });

    it('accepts the current superior as Uebervermittler', async () => {
      const response = await patch('V1003', { Uebervermittler: 'V1001' }).expect(200);
      expect(response.body).toMatchObject({ Uebervermittler: 'V1001' });
      expect((await row('V1003')).parent).toBe('V1001');
    });

    it.each([
      ['V1001', 'V1003', 'cycle'],
      ['V1001', 'V1001', 'cycle'],
      ['V1001', 'V2000', 'Uebervermittler V2000 is neither you nor a broker below you'],
      ['V1001', 'V1900', 'Uebervermittler V1900 is neither you nor a broker below you'],
      ['V1001', 'V9999', 'Uebervermittler V9999 is neither you nor a broker below you'],
      ['V1002', 'V1003', null],
    ])(
      'moves %s under %s only if allowed, with the field changes in one transaction',
      async (broker, parent, message) => {
        const before = await allRows();
        const response = await refusedByRule(
          patch(broker, { Uebervermittler: parent, Name: 'Verschoben', PLZ: '10115' }),
        );
        if (message === null) {
          expect(response.status).toBe(200);
          expect(await row(broker)).toMatchObject({ parent, name: 'Verschoben', postal_code: '10115' });
          return;
        }
        expect(response.status).toBe(400);
        expect((response.body as { Meldungen: string[] }).Meldungen.join(' | ')).toContain(message);
        expect(await allRows()).toEqual(before);
      },
    );

    it('refuses to move V1001 under V1002 once V1002 is two levels below it', async () => {
      // V1002 under V1003 (below V1001): V1002 is then two levels below V1001.
      await patch('V1002', { Uebervermittler: 'V1003' }).expect(200);
      const before = await allRows();
      const response = await refusedByRule(patch('V1001', { Uebervermittler: 'V1002' })).expect(400);
      expect((response.body as { Meldungen: string[] }).Meldungen.join(' | ')).toContain('cycle');
      expect(await allRows()).toEqual(before);
    });

    it('lets only one of two concurrent moves that together would make a cycle through', async () => {
      for (let round = 0; round < 5; round++) {
        if (round > 0) {
          await patch('V1002', { Uebervermittler: 'V1000' }).expect(200);
          await patch('V1003', { Uebervermittler: 'V1001' }).expect(200);
        }
        const responses = await Promise.all([
          refusedByRule(patch('V1002', { Uebervermittler: 'V1003' })),
          refusedByRule(patch('V1003', { Uebervermittler: 'V1002' })),
        ]);
        expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
        // Both are still below V1000, so neither sits in a cycle.
        const reachable = await db.query<{ broker_number: string }>(
          `WITH RECURSIVE below(id) AS (
             SELECT id FROM broker.broker WHERE broker_number = 'V1000'
             UNION SELECT b.id FROM broker.broker b JOIN below ON b.parent_id = below.id)
           SELECT broker_number FROM broker.broker WHERE id IN (SELECT id FROM below) ORDER BY 1`,
        );
        expect(reachable.rows.map((found) => found.broker_number)).toEqual([
          'V1000',
          'V1001',
          'V1002',
          'V1003',
        ]);
      }
    });

    it('answers 404 to V2000 moving V1001, outside its hierarchy', async () => {
      const response = await patch('V1001', { Uebervermittler: 'V2000' }, FIXTURE_API_CLIENTS.other).expect(
        404,
      );
      expect(response.body).toEqual({ Meldungen: ['Vermittler V1001 does not exist'] });
      expect((await row('V1001')).parent).toBe('V1000');
    });
  });
});
