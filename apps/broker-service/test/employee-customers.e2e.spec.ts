import type { Client } from 'pg';
import { refusedByRule } from '@broker/testing';
import { FIXTURE_API_CLIENTS, FIXTURE_EMPLOYEES } from './employee-fixture.js';
import { BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

describe('employee service: customers, addresses, contacts, records, details, enumerations', () => {
  let service: EmployeeTestService;
  let db: Client;
  const path = (rest: string) => service.employeePath(rest);

  beforeAll(async () => {
    service = await startEmployeeTestService();
    db = service.db;
  });
  afterAll(async () => {
    await service?.close();
  });

  async function addCustomer(body: Record<string, unknown>): Promise<string> {
    const response = await service.call('post', path('/kunden'), { body }).expect(200);
    return (response.body as { Id: string }).Id;
  }

  describe('addKunde, getKunde, setKunde', () => {
    it('creates a customer with contacts and a note, answering only Id and Benutzername', async () => {
      const response = await service
        .call('post', path('/kunden'), {
          body: {
            Benutzername: 'julia.neu',
            Anrede: 'frau',
            Person: { Typ: 'natuerlich', Vorname: 'Julia', Nachname: 'Neu', Geburtsdatum: '15.03.1985' },
            Kontaktdaten: [
              { Kontext: 'privat', Typ: 'email', Value: 'julia@example.com' },
              { Kontext: 'privat', Typ: 'mobil', Value: '+49 171 1234567', Standard: true },
            ],
            Notizen: { Typ: 'telefonat', Text: 'Rückruf erbeten' },
            Mitteilungen: { Passwort: true },
          },
        })
        .expect(200);
      expect(response.body).toEqual({ Id: expect.stringMatching(/^\d+$/), Benutzername: 'julia.neu' });
      const id = (response.body as { Id: string }).Id;

      const customer = await service.call('get', path(`/kunden/${id}`)).expect(200);
      expect(customer.body).toEqual({
        Id: id,
        Vermittler: 'V1000',
        Anrede: 'frau',
        PerDu: false,
        Verstorben: false,
        KundenbeziehungBeendetAm: null,
        Benutzername: 'julia.neu',
        Person: {
          Typ: 'natuerlich',
          Titel: null,
          Vorname: 'Julia',
          Nachname: 'Neu',
          Geburtsdatum: '1985-03-15',
          Beruf: null,
          Fachrichtung: null,
        },
        Kontaktdaten: `${BASE}/01_01/kunden/${id}/kontaktdaten`,
        Adressen: `${BASE}/01_01/kunden/${id}/adressen`,
        Vertraege: `${BASE}/01_01/kunden/${id}/vertraege`,
        Notizen: { Typ: 'telefonat', Text: 'Rückruf erbeten' },
        Mitteilungen: { Benutzername: true, PasswortLink: true, ErstinfoUnterbinden: false },
      });
      // Every link resolves.
      const body = customer.body as Record<string, string>;
      for (const link of [body.Kontaktdaten, body.Adressen, body.Vertraege]) {
        await service.call('get', link).expect(200);
      }
      const contacts = await service.call('get', body.Kontaktdaten).expect(200);
      expect(contacts.body).toEqual([
        expect.objectContaining({ Typ: 'email', Value: 'julia@example.com', Standard: true }),
        expect.objectContaining({ Typ: 'mobil', Value: '+49 171 1234567', Standard: true }),
      ]);
    });

    it('refuses a user name that is taken, in any case', async () => {
      await addCustomer({ Benutzername: 'taken.name', Person: { Typ: 'natuerlich', Nachname: 'Eins' } });
      const response = await refusedByRule(
        service.call('post', path('/kunden'), {
          body: { Benutzername: 'Taken.Name', Person: { Typ: 'natuerlich', Nachname: 'Zwei' } },
        }),
      ).expect(400);
      expect(response.body).toEqual({ Meldungen: ['Benutzername Taken.Name is already taken'] });
    });

    it('gives a customer without a user name a free one from the names', async () => {
      const first = await service
        .call('post', path('/kunden'), {
          body: { Person: { Typ: 'natuerlich', Vorname: 'Jürgen', Nachname: 'Groß' } },
        })
        .expect(200);
      const second = await service
        .call('post', path('/kunden'), {
          body: { Person: { Typ: 'natuerlich', Vorname: 'Jürgen', Nachname: 'Groß' } },
        })
        .expect(200);
      expect([first.body.Benutzername, second.body.Benutzername]).toEqual([
        'juergen.gross',
        'juergen.gross2',
      ]);
    });

    it.each([
      [
        { Person: { Typ: 'natuerlich', Vorname: 'Ohne' } },
        'Person.Nachname is required for a natural person',
      ],
      [{ Person: { Typ: 'juristisch', Branche: 'Handel' } }, 'Person.Firma is required for a legal person'],
      [
        { Person: { Typ: 'natuerlich', Nachname: 'X', Firma: 'Y GmbH' } },
        'Person.Firma is not a field of a natural person',
      ],
      [
        { Person: { Typ: 'natuerlich', Nachname: 'X', Geburtsdatum: '31.02.1980' } },
        'Person.Geburtsdatum "31.02.1980" is not a date',
      ],
      [
        { Person: { Typ: 'natuerlich', Nachname: 'X', Geburtsdatum: '9999-12-31' } },
        'Person.Geburtsdatum "9999-12-31" is in the future',
      ],
      [
        { Person: { Typ: 'juristisch', Firma: 'Y GmbH', Gruendungsdatum: '2999-01-01T00:00:00+14:00' } },
        'Person.Gruendungsdatum "2999-01-01T00:00:00+14:00" is in the future',
      ],
      [{ Person: { Typ: 'roboter', Nachname: 'X' } }, 'Person.Typ must be one of the following values'],
      [{}, 'Person'],
      [
        { Anrede: 'graf', Person: { Typ: 'natuerlich', Nachname: 'X' } },
        'Anrede must be one of the following values',
      ],
      [{ PerDu: 'ja', Person: { Typ: 'natuerlich', Nachname: 'X' } }, 'PerDu must be a boolean value'],
      [
        { Person: { Typ: 'natuerlich', Nachname: 'X'.repeat(101) } },
        'Person.Nachname must be shorter than or equal to 100 characters',
      ],
      [{ Farbe: 'blau', Person: { Typ: 'natuerlich', Nachname: 'X' } }, 'property Farbe should not exist'],
      [{ Person: [{ Typ: 'natuerlich', Nachname: 'X' }] }, 'Person must be an object'],
      [{ Person: { Typ: 'natuerlich', Nachname: 'X' }, Notizen: [] }, 'Notizen must be an object'],
      [{ Person: { Nachname: 'X' } }, 'Person.Typ is required'],
      [
        {
          Person: { Typ: 'natuerlich', Nachname: 'X' },
          Kontaktdaten: [{ Kontext: 'privat', Typ: 'email', Value: 'keine Adresse' }],
        },
        'Kontaktdaten.0.Value "keine Adresse" is not an e-mail address',
      ],
      [
        { Person: { Typ: 'natuerlich', Nachname: 'A\u0000B' } },
        'Person.Nachname must not contain NUL characters',
      ],
      [
        {
          Person: { Typ: 'natuerlich', Nachname: 'X' },
          Kontaktdaten: [
            { Kontext: 'privat', Typ: 'email', Value: 'a@example.com', Standard: true },
            { Kontext: 'privat', Typ: 'email', Value: 'b@example.com', Standard: true },
          ],
        },
        'only one entry of kind email can be Standard',
      ],
      [
        {
          Person: { Typ: 'natuerlich', Nachname: 'X' },
          Kontaktdaten: [{ Kontext: 'privat', Typ: 'brieftaube', Value: 'x' }],
        },
        'Kontaktdaten.0.Typ must be one of the following values',
      ],
      [
        { Vermittler: 'V2000', Person: { Typ: 'natuerlich', Nachname: 'X' } },
        'Vermittler V2000 is neither yours nor below yours',
      ],
    ])('refuses %j with 400 naming the problem, writing nothing', async (body, message) => {
      const before = await db.query('SELECT count(*)::int AS n FROM broker.customer');
      const response = await refusedByRule(service.call('post', path('/kunden'), { body })).expect(400);
      expect((response.body as { Meldungen: string[] }).Meldungen.join(' | ')).toContain(message);
      const after = await db.query('SELECT count(*)::int AS n FROM broker.customer');
      expect(after.rows[0]).toEqual(before.rows[0]);
    });

    it('refuses malformed JSON with 400', async () => {
      const response = await service
        .call('post', path('/kunden'), { headers: { 'Content-Type': 'application/json' } })
        .send('{"Person": {')
        .expect(400);
      expect(response.body).toEqual({ Meldungen: [expect.any(String)] });
    });

    it('creates a customer for a broker below the employee when Vermittler names it', async () => {
      const id = await addCustomer({
        Vermittler: 'V1003',
        Person: { Typ: 'juristisch', Firma: 'Hafen GmbH' },
      });
      const customer = await service.call('get', path(`/kunden/${id}`)).expect(200);
      expect(customer.body).toMatchObject({
        Vermittler: 'V1003',
        Person: { Typ: 'juristisch', Firma: 'Hafen GmbH' },
      });
    });

    it('updates what setKunde sends, keeps what it omits and clears what it sends empty', async () => {
      const id = await addCustomer({
        Benutzername: 'set.me',
        Person: {
          Typ: 'natuerlich',
          Vorname: 'Set',
          Nachname: 'Me',
          Beruf: 'Lehrer',
          Geburtsdatum: '1970-01-02',
        },
      });
      const updated = await service
        .call('put', path(`/kunden/${id}`), {
          body: {
            Id: 'ignored',
            Kontaktdaten: undefined,
            PerDu: true,
            KundenbeziehungBeendetAm: '2026-03-29T01:30:00+01:00',
            Person: { Typ: 'natuerlich', Nachname: 'Neu', Beruf: '' },
            Adressen: 'links are ignored',
          },
        })
        .expect(200);
      expect(updated.body).toMatchObject({
        Id: id,
        PerDu: true,
        KundenbeziehungBeendetAm: '2026-03-29',
        Benutzername: 'set.me',
        Person: { Vorname: 'Set', Nachname: 'Neu', Beruf: null, Geburtsdatum: '1970-01-02' },
      });
    });

    it('takes back a customer exactly as getKunde answered it, changing nothing and adding no note', async () => {
      const id = await addCustomer({
        Person: { Typ: 'natuerlich', Nachname: 'Zurueck', Vorname: 'Rita' },
        Notizen: { Typ: 'allgemein', Text: 'Erstkontakt' },
      });
      const read = await service.call('get', path(`/kunden/${id}`)).expect(200);
      const again = await service.call('put', path(`/kunden/${id}`), { body: read.body }).expect(200);
      expect(again.body).toEqual(read.body);
      const notes = await db.query(
        'SELECT count(*)::int AS n FROM broker.customer_note WHERE customer_id = $1',
        [id],
      );
      expect(notes.rows[0]).toEqual({ n: 1 });
      // Without Person, setKunde keeps the person.
      const partial = await service.call('put', path(`/kunden/${id}`), { body: { PerDu: true } }).expect(200);
      expect(partial.body).toMatchObject({ PerDu: true, Person: { Nachname: 'Zurueck', Vorname: 'Rita' } });
    });

    it('refuses contact entries in setKunde and a user name another customer has', async () => {
      await addCustomer({ Benutzername: 'first.owner', Person: { Typ: 'natuerlich', Nachname: 'A' } });
      const id = await addCustomer({ Person: { Typ: 'natuerlich', Nachname: 'B' } });
      await refusedByRule(
        service.call('put', path(`/kunden/${id}`), {
          body: { Benutzername: 'first.owner', Person: { Typ: 'natuerlich', Nachname: 'B' } },
        }),
      ).expect(400);
      await refusedByRule(
        service.call('put', path(`/kunden/${id}`), {
          body: { Person: { Typ: 'natuerlich', Nachname: 'B' }, Kontaktdaten: [] },
        }),
      ).expect(400);
    });
  });

  describe('addresses', () => {
    it('keeps address 0 as the main residence and refuses hauptwohnsitz anywhere else', async () => {
      const id = await addCustomer({ Person: { Typ: 'natuerlich', Nachname: 'Adresse' } });
      const addresses = path(`/kunden/${id}/adressen`);
      const refused = await refusedByRule(
        service.call('post', addresses, { body: { Typ: 'hauptwohnsitz', Ort: 'Köln' } }),
      ).expect(400);
      expect(refused.body).toEqual({
        Meldungen: ['Typ hauptwohnsitz cannot be added: the main residence is address 0'],
      });
      const main = await service
        .call('put', `${addresses}/0`, {
          body: { Typ: 'postanschrift', Strasse: 'Domstraße 1', Postleitzahl: '50667', Ort: 'Köln' },
        })
        .expect(200);
      expect(main.body).toEqual({
        Uri: `${addresses}/0`,
        Id: '0',
        Typ: 'hauptwohnsitz',
        Zusatz: null,
        Strasse: 'Domstraße 1',
        Postleitzahl: '50667',
        Ort: 'Köln',
        Land: 'DE',
      });
      // The address as read goes back unchanged (null fields included), and its Uri resolves.
      const mainRead = await service.call('get', (main.body as { Uri: string }).Uri).expect(200);
      await service.call('put', `${addresses}/0`, { body: mainRead.body }).expect(200);
      expect((await service.call('get', `${addresses}/0`).expect(200)).body).toEqual(main.body);
      const second = await service
        .call('post', addresses, { body: { Typ: 'nebenwohnsitz', Ort: 'Sylt', Land: 'DE' } })
        .expect(200);
      expect(second.body).toMatchObject({ Id: '1', Typ: 'nebenwohnsitz', Ort: 'Sylt' });
      await refusedByRule(service.call('put', `${addresses}/1`, { body: { Typ: 'hauptwohnsitz' } })).expect(
        400,
      );
      await service.call('put', `${addresses}/1`, { body: { Ort: 'List' } }).expect(200);
      expect((await service.call('delete', `${addresses}/0`).expect(400)).body).toEqual({
        Meldungen: ['Address 0, the main residence, cannot be deleted'],
      });
      await service.call('delete', `${addresses}/1`).expect(204);
      await service.call('delete', `${addresses}/1`).expect(404);
      await service.call('put', `${addresses}/7`, { body: { Ort: 'X' } }).expect(404);
      const list = await service.call('get', addresses).expect(200);
      expect((list.body as { Id: string }[]).map((address) => address.Id)).toEqual(['0']);
      await service.call('post', addresses, { body: { Typ: 'nebenwohnsitz', Land: 'XX' } }).expect(400);
      await service.call('put', `${addresses}/abc`, { body: { Ort: 'X' } }).expect(400);
    });
  });

  describe('contact entries', () => {
    it('keeps one standard entry per kind and takes only Value and Standard on update', async () => {
      const id = await addCustomer({ Person: { Typ: 'natuerlich', Nachname: 'Kontakt' } });
      const contacts = path(`/kunden/${id}/kontaktdaten`);
      const first = await service
        .call('post', contacts, { body: { Kontext: 'privat', Typ: 'telefon', Value: '0221 1' } })
        .expect(200);
      expect(first.body).toMatchObject({
        Typ: 'telefon',
        Standard: true,
        Uri: `${contacts}/${first.body.Id}`,
      });
      const second = await service
        .call('post', contacts, {
          body: { Kontext: 'geschaeftlich', Typ: 'telefon', Value: '0221 2', Standard: true },
        })
        .expect(200);
      const list = async () =>
        (await service.call('get', contacts).expect(200)).body as {
          Id: string;
          Standard: boolean;
          Value: string;
          Kontext: string;
        }[];
      expect((await list()).map((entry) => entry.Standard)).toEqual([false, true]);

      const updated = await service
        .call('put', `${contacts}/${first.body.Id}`, {
          body: { Value: '0221 99', Standard: true, Typ: 'fax', Kontext: 'geschaeftlich' },
        })
        .expect(200);
      expect(updated.body).toMatchObject({
        Typ: 'telefon',
        Kontext: 'privat',
        Value: '0221 99',
        Standard: true,
      });
      expect((await list()).map((entry) => entry.Standard)).toEqual([true, false]);
      // Absent or null: left as it is.
      const unchanged = await service
        .call('put', `${contacts}/${first.body.Id}`, { body: { Value: null, Standard: null } })
        .expect(200);
      expect(unchanged.body).toMatchObject({ Value: '0221 99', Standard: true });

      await service.call('delete', `${contacts}/${first.body.Id}`).expect(204);
      expect(await list()).toEqual([expect.objectContaining({ Id: second.body.Id, Standard: true })]);
      await service.call('delete', `${contacts}/${first.body.Id}`).expect(404);
      await service
        .call('post', contacts, { body: { Kontext: 'privat', Typ: 'telefon', Value: '' } })
        .expect(400);
    });
  });

  describe('contracts, documents and archive entries', () => {
    it('lists the contracts with amounts as decimal strings and the archive entries with links', async () => {
      const id = service.customers.v1000Customer;
      await db.query(
        `INSERT INTO broker.contract (tenant_id, broker_id, customer_id, company_id, line_of_business, policy_number,
                                      status, start_date, payment_mode, net_premium_cents, gross_premium_cents)
         SELECT c.tenant_id, c.broker_id, c.id, co.id, '040', 'PH-77', 'aktiv', '2024-01-01', 'jaehrlich', 5462, 6500
           FROM broker.customer c JOIN broker.company co ON co.vu_number = '9999' WHERE c.id = $1`,
        [id],
      );
      const { rows } = await db.query<{ id: string }>(
        `WITH doc AS (
           INSERT INTO broker.document (tenant_id, customer_id, title, file_name, mime_type, size_bytes, sha256, storage_key)
           SELECT tenant_id, id, 'Vollmacht', 'vollmacht.pdf', 'application/pdf', 1234, repeat('a', 64), 'docs/1'
             FROM broker.customer WHERE id = $1 RETURNING id, tenant_id, customer_id)
         INSERT INTO broker.archive_entry (tenant_id, customer_id, entry_type, title, entry_date, document_id)
         SELECT tenant_id, customer_id, 'maklervollmacht', 'Maklervollmacht', '2026-07-01T10:00:00Z', id FROM doc
         RETURNING id::text`,
        [id],
      );
      const entryId = rows[0].id;
      await db.query(
        `INSERT INTO broker.archive_entry (tenant_id, customer_id, entry_type, title, entry_date)
         SELECT tenant_id, id, 'notiz', 'Gespräch', '2026-01-15T09:00:00Z' FROM broker.customer WHERE id = $1`,
        [id],
      );
      await db.query('UPDATE broker.customer SET mandate_archive_entry_id = $2 WHERE id = $1', [id, entryId]);

      const contracts = await service.call('get', path(`/kunden/${id}/vertraege`)).expect(200);
      expect(contracts.body).toEqual([
        expect.objectContaining({
          Vertragsnummer: 'PH-77',
          Gesellschaft: { Id: '9999', Name: 'XXX Versicherung AG' },
          Nettobeitrag: '54.62',
          Bruttobeitrag: '65.00',
          Beginn: '2024-01-01',
        }),
      ]);
      const customer = await service.call('get', path(`/kunden/${id}`)).expect(200);
      const mandate = (customer.body as { Maklervollmacht: string }).Maklervollmacht;
      expect(mandate).toBe(path(`/kunden/${id}/archiveintraege/${entryId}`));
      const entry = await service.call('get', mandate).expect(200);
      expect(entry.body).toEqual({
        Uri: mandate,
        Id: entryId,
        Typ: 'maklervollmacht',
        Titel: 'Maklervollmacht',
        Datum: '2026-07-01T12:00:00',
        Dokument: { Dateiname: 'vollmacht.pdf', MimeType: 'application/pdf', Groesse: 1234 },
      });
      const documents = await service.call('get', path(`/kunden/${id}/dokumente`)).expect(200);
      expect((documents.body as { Id: string }[]).map((document) => document.Id)).toEqual([entryId]);
      const archive = await service.call('get', path(`/kunden/${id}/archiveintraege`)).expect(200);
      expect((archive.body as { Datum: string }[]).map((item) => item.Datum)).toEqual([
        '2026-07-01T12:00:00',
        '2026-01-15T10:00:00',
      ]);
    });
  });

  describe('customer details', () => {
    beforeAll(async () => {
      await db.query(
        `INSERT INTO broker.customer_detail_definition (tenant_id, broker_id, detail_key, name, value_type, options)
         SELECT b.tenant_id, b.id, d.key, d.name, d.type, d.options::jsonb
           FROM broker.broker b,
                (VALUES ('kinder', 'Anzahl Kinder', 'zahl', NULL), ('seit', 'Kunde seit', 'datum', NULL),
                        ('risiko', 'Risikoklasse', 'auswahl', '{"a": "niedrig", "b": "hoch"}'),
                        ('hobby', 'Hobby', 'text', NULL), ('budget', 'Budget', 'betrag_2', NULL),
                        ('raucher', 'Raucher', 'boolean', NULL)) AS d(key, name, type, options)
          WHERE b.broker_number = 'V1000'`,
      );
    });

    it('lists the definitions of the broker, and one wrapped in an array', async () => {
      const all = await service.call('get', path('/kunden/details')).expect(200);
      expect((all.body as { Id: string }[]).map((definition) => definition.Id).sort()).toEqual([
        'budget',
        'hobby',
        'kinder',
        'raucher',
        'risiko',
        'seit',
      ]);
      const one = await service.call('get', path('/kunden/details/risiko')).expect(200);
      expect(one.body).toEqual([
        { Id: 'risiko', Name: 'Risikoklasse', Type: 'auswahl', Definition: { a: 'niedrig', b: 'hoch' } },
      ]);
      await service.call('get', path('/kunden/details/unbekannt')).expect(404);
    });

    it.each([
      ['kinder', '2', '2'],
      ['kinder', '2,5', '2.5'],
      ['seit', '01.04.2020', '2020-04-01'],
      ['risiko', 'b', 'b'],
      ['hobby', 'Segeln', 'Segeln'],
      ['budget', '12,50', '12.50'],
      ['raucher', false, false],
    ])('sets detail %s to %j, answering it with its Uri', async (key, value, stored) => {
      const id = service.customers.v1003Customer;
      const response = await service
        .call('put', path(`/kunden/${id}/details/${key}`), { body: { Value: value } })
        .expect(200);
      expect(response.body).toMatchObject({
        Id: key,
        Value: stored,
        Uri: path(`/kunden/${id}/details/${key}`),
      });
      const read = await service.call('get', path(`/kunden/${id}/details/${key}`)).expect(200);
      expect(read.body).toMatchObject({ Id: key, Value: stored });
    });

    it.each([
      ['kinder', 'zwei'],
      ['seit', '31.02.2020'],
      ['risiko', 'c'],
      ['budget', '12,5'],
      ['raucher', 'false'],
      ['hobby', 7],
      ['hobby', 'x'.repeat(4001)],
    ])('refuses detail %s with value %j', async (key, value) => {
      const id = service.customers.v1000Customer;
      const response = await refusedByRule(
        service.call('put', path(`/kunden/${id}/details/${key}`), { body: { Value: value } }),
      ).expect(400);
      expect((response.body as { Meldungen: string[] }).Meldungen[0]).toContain(
        `Value of detail ${key} must be`,
      );
    });

    it("follows the definitions of the customer's own broker, also for an employee above it", async () => {
      await db.query(
        `INSERT INTO broker.customer_detail_definition (tenant_id, broker_id, detail_key, name, value_type)
       SELECT tenant_id, id, 'hafenplatz', 'Liegeplatz', 'text' FROM broker.broker WHERE broker_number = 'V1003'`,
      );
      const id = service.customers.v1003Customer;
      await service
        .call('put', path(`/kunden/${id}/details/hafenplatz`), { body: { Value: 'Kai 7' } })
        .expect(200);
      expect(
        (await service.call('get', path(`/kunden/${id}/details/hafenplatz`)).expect(200)).body,
      ).toMatchObject({
        Value: 'Kai 7',
      });
      // A customer of V1000 has no such detail; neither has the V1000 broker's own list.
      await service
        .call('get', path(`/kunden/${service.customers.v1000Customer}/details/hafenplatz`))
        .expect(404);
      await service.call('get', path('/kunden/details/hafenplatz')).expect(404);
    });

    it('lists the details a customer has values for', async () => {
      const id = await addCustomer({ Person: { Typ: 'natuerlich', Nachname: 'Detail' } });
      await service
        .call('put', path(`/kunden/${id}/details/hobby`), { body: { Value: 'Lesen' } })
        .expect(200);
      const list = await service.call('get', path(`/kunden/${id}/details`)).expect(200);
      expect(list.body).toEqual([{ Id: 'hobby', Name: 'Hobby', Value: 'Lesen', Type: 'text' }]);
    });
  });

  describe('enumerations', () => {
    it('serves salutations, contact kinds, note types, address types and countries with German names', async () => {
      const values = async (name: string) =>
        (await service.call('get', `${BASE}/${name}`).expect(200)).body as { Value: string; Text: string }[];
      expect(await values('anreden')).toContainEqual({ Value: 'frau', Text: 'Frau' });
      expect((await values('kontaktarten')).map((item) => item.Value)).toEqual(
        expect.arrayContaining(['telefon', 'mobil', 'email', 'fax']),
      );
      expect((await values('notiztypen')).length).toBeGreaterThan(3);
      expect(await values('adresstypen')).toContainEqual({ Value: 'hauptwohnsitz', Text: 'Hauptwohnsitz' });
      const countries = await values('laender');
      expect(countries.length).toBeGreaterThan(240);
      expect(countries).toContainEqual({ Value: 'DE', Text: 'Deutschland' });
      expect(countries).toContainEqual({ Value: 'AT', Text: 'Österreich' });
    });
  });

  describe('visibility', () => {
    it('lets V1000 see the customers of V1003 below it', async () => {
      const response = await service
        .call('get', path(`/kunden/${service.customers.v1003Customer}`))
        .expect(200);
      expect(response.body).toMatchObject({ Vermittler: 'V1003', Person: { Nachname: 'Unten' } });
    });

    it('answers every operation of a V2000 employee on a V1000 customer with 404, as for a missing id', async () => {
      const id = service.customers.v1000Customer;
      const as = { client: FIXTURE_API_CLIENTS.other };
      const other = (rest: string) => service.employeePath(rest, FIXTURE_EMPLOYEES.other);
      const operations: ['get' | 'post' | 'put' | 'delete', string, unknown?][] = [
        ['get', `/kunden/${id}`],
        ['put', `/kunden/${id}`, { Person: { Typ: 'natuerlich', Nachname: 'X' } }],
        ['get', `/kunden/${id}/adressen`],
        ['get', `/kunden/${id}/adressen/0`],
        ['get', `/kunden/${id}/kontaktdaten/1`],
        ['get', `/kunden/${id}/archiveintraege/1`],
        ['post', `/kunden/${id}/adressen`, { Typ: 'nebenwohnsitz' }],
        ['put', `/kunden/${id}/adressen/0`, { Ort: 'X' }],
        ['delete', `/kunden/${id}/adressen/1`],
        ['get', `/kunden/${id}/kontaktdaten`],
        ['post', `/kunden/${id}/kontaktdaten`, { Kontext: 'privat', Typ: 'email', Value: 'x@example.com' }],
        ['put', `/kunden/${id}/kontaktdaten/1`, { Value: 'x' }],
        ['delete', `/kunden/${id}/kontaktdaten/1`],
        ['get', `/kunden/${id}/vertraege`],
        ['get', `/kunden/${id}/dokumente`],
        ['get', `/kunden/${id}/archiveintraege`],
        ['get', `/kunden/${id}/details`],
        ['get', `/kunden/${id}/details/hobby`],
        ['put', `/kunden/${id}/details/hobby`, { Value: 'x' }],
      ];
      for (const [method, rest, body] of operations) {
        const response = await service.call(method, other(rest), { ...as, body });
        expect([method, rest, response.status, response.body]).toEqual([
          method,
          rest,
          404,
          { Meldungen: [expect.stringMatching(/does not exist$/)] },
        ]);
      }
      const missing = await service.call('get', other('/kunden/999999999'), as).expect(404);
      const foreign = await service.call('get', other(`/kunden/${id}`), as).expect(404);
      expect(foreign.body).toEqual({ Meldungen: [`Customer ${id} does not exist`] });
      expect(missing.body).toEqual({ Meldungen: ['Customer 999999999 does not exist'] });
    });

    it('answers ids that are not ids with 400', async () => {
      const response = await service.call('get', path('/kunden/12abc')).expect(400);
      expect(response.body).toEqual({ Meldungen: ['customerId "12abc" is not an id'] });
    });
  });
});
