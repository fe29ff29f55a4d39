import type { Client } from 'pg';
import type request from 'supertest';
import { FIXTURE_API_CLIENTS, FIXTURE_EMPLOYEES, type FixtureApiClient } from './employee-fixture.js';
import { BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

interface Hit {
  Uri: string;
  Id: string;
  Anrede: string | null;
  Person: Record<string, unknown>;
  Hauptwohnsitz: Record<string, unknown> | null;
}

interface SearchOptions {
  client?: FixtureApiClient;
  employee?: string;
  body?: unknown;
}

describe('employee service: searchKunden', () => {
  let service: EmployeeTestService;
  let db: Client;
  /** Customers inserted by SQL below, by role in the tests. */
  const c: Record<string, string> = {};
  const brokers: Record<string, string> = {};
  let tenantId: string;

  const searchPath = (query: string, employee: string = FIXTURE_EMPLOYEES.main) =>
    `${BASE}/${employee}/kunden/_search?${query}`;

  function search(query: string, options: SearchOptions = {}): request.Test {
    const employee = options.employee ?? (options.client === FIXTURE_API_CLIENTS.other ? '02_01' : undefined);
    return service.call(options.body === undefined ? 'get' : 'post', searchPath(query, employee), {
      client: options.client,
      body: options.body,
    });
  }

  /** The ids found for `q` (checking status 200 and that X-Svc-Total is at least the page). */
  async function found(q: string, options: SearchOptions = {}): Promise<string[]> {
    const response = await search(`q=${encodeURIComponent(q)}`, options).expect(200);
    const hits = response.body as Hit[];
    expect(Number(response.headers['x-svc-total'])).toBeGreaterThanOrEqual(hits.length);
    return hits.map((hit) => hit.Id);
  }

  async function insertCustomer(
    broker: string,
    person: { first?: string; last?: string; company?: string; contact?: string; founded?: string },
    address?: { street: string; postalCode: string; city: string },
    contacts: [type: string, value: string][] = [],
  ): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO broker.customer (tenant_id, broker_id, person_type, salutation, first_name, last_name,
                                    company_name, contact_person, founding_date, birth_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::text`,
      [
        tenantId,
        brokers[broker],
        person.company ? 'juristisch' : 'natuerlich',
        person.company ? 'firma' : 'herr',
        person.first ?? null,
        person.last ?? null,
        person.company ?? null,
        person.contact ?? null,
        person.founded ?? null,
        person.company ? null : '1970-05-04',
      ],
    );
    const id = rows[0].id;
    if (address)
      await db.query(
        `INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, street, postal_code, city)
         VALUES ($1, $2, 0, 'hauptwohnsitz', $3, $4, $5)`,
        [tenantId, id, address.street, address.postalCode, address.city],
      );
    for (const [type, value] of contacts)
      await db.query(
        `INSERT INTO broker.contact (tenant_id, customer_id, context, contact_type, value)
         VALUES ($1, $2, 'privat', $3, $4)`,
        [tenantId, id, type, value],
      );
    return id;
  }

  /**
   * Rows of the search table that differ from what the inventory says (words or chain of brokers), and words
   * missing in the vocabulary.
   */
  async function staleSearchRows(): Promise<number> {
    const { rows } = await db.query<{ stale: number }>(
      `SELECT ((SELECT count(*) FROM broker.customer_search s FULL JOIN (
                 SELECT v.customer_id, c.brokers, v.words FROM broker.customer_search_source v
                   JOIN broker.search_broker_chains(ARRAY(SELECT id FROM broker.broker)) c USING (broker_id)) v
                 USING (customer_id)
                WHERE (s.brokers, s.words) IS DISTINCT FROM (v.brokers, v.words))
            + (SELECT count(*) FROM (
                 SELECT DISTINCT w FROM broker.customer_search, unnest(tsvector_to_array(words)) w WHERE w !~ '[0-9@]'
                 EXCEPT SELECT word FROM broker.customer_search_vocabulary) m))::int AS stale`,
    );
    return rows[0].stale;
  }

  beforeAll(async () => {
    service = await startEmployeeTestService();
    db = service.db;
    const { rows } = await db.query<{ broker_number: string; id: string; tenant_id: string }>(
      'SELECT broker_number, id::text, tenant_id::text FROM broker.broker',
    );
    for (const row of rows) brokers[row.broker_number] = row.id;
    tenantId = rows[0].tenant_id;
    // Created before the exact "Müller" hits: rank, not id, puts those first.
    c.obermueller = await insertCustomer(
      'V1001',
      { first: 'Karl', last: 'Obermüller' },
      { street: 'Gartenweg 3', postalCode: '50667', city: 'Köln' },
    );
    c.muellerschoen = await insertCustomer('V1000', { first: 'Ina', last: 'Müllerschön' });
    c.hans = await insertCustomer(
      'V1000',
      { first: 'Hans', last: 'Müller' },
      { street: 'Lindenstraße 12', postalCode: '10115', city: 'Berlin' },
      [
        ['email', 'Hans.Mueller@Beispiel.de'],
        ['mobil', '0171 2345678'],
      ],
    );
    c.petra = await insertCustomer(
      'V1000',
      { first: 'Petra', last: 'Mueller' },
      { street: 'Am Markt 1', postalCode: '80331', city: 'München' },
    );
    c.firma = await insertCustomer(
      'V1003',
      { company: 'Zwölf Äpfel GmbH', contact: 'Greta Groß', founded: '2001-02-03' },
      { street: 'Schloßallee 7', postalCode: '20095', city: 'Hamburg' },
      [
        ['email', 'info@zwoelf-aepfel.example'],
        ['telefon', '+49 30 9876543'],
      ],
    );
    c.wegner = await insertCustomer(
      'V1002',
      { first: 'Otto', last: 'Wegner' },
      { street: 'Hauptstraße 99', postalCode: '99084', city: 'Erfurt' },
    );
    c.quasten = await insertCustomer('V1000', { first: 'Zacharias', last: 'Quastenflosser' });
    c.otherMueller = await insertCustomer(
      'V2000',
      { first: 'Hans', last: 'Müller' },
      { street: 'Lindenstraße 12', postalCode: '10115', city: 'Berlin' },
      [['email', 'other.mueller@beispiel.de']],
    );
  });

  afterAll(async () => {
    await service?.close();
  });

  describe('the result', () => {
    it('answers KundenSuchErgebnis with the main residence as the address operations answer it', async () => {
      const response = await search('q=Obermüller').expect(200);
      expect(response.headers['x-svc-total']).toBe('1');
      expect(response.body).toEqual([
        {
          Uri: `${BASE}/01_01/kunden/${c.obermueller}`,
          Id: c.obermueller,
          Anrede: 'herr',
          Person: {
            Typ: 'natuerlich',
            Titel: null,
            Vorname: 'Karl',
            Nachname: 'Obermüller',
            Geburtsdatum: '1970-05-04',
          },
          Hauptwohnsitz: {
            Uri: `${BASE}/01_01/kunden/${c.obermueller}/adressen/0`,
            Id: '0',
            Typ: 'hauptwohnsitz',
            Zusatz: null,
            Strasse: 'Gartenweg 3',
            Postleitzahl: '50667',
            Ort: 'Köln',
            Land: 'DE',
          },
        },
      ]);
      const [hit] = response.body as Hit[];
      const addresses = await service.call('get', `${hit.Uri}/adressen`).expect(200);
      expect(addresses.body).toEqual([hit.Hauptwohnsitz]);
      const customer = await service.call('get', hit.Uri).expect(200);
      expect(customer.body).toMatchObject({ Id: c.obermueller, Person: { Nachname: 'Obermüller' } });
    });

    it('answers a legal person with its own fields, and Hauptwohnsitz null without address 0', async () => {
      const legal = await search('q=Äpfel').expect(200);
      expect((legal.body as Hit[])[0]).toMatchObject({
        Id: c.firma,
        Anrede: 'firma',
        Person: {
          Typ: 'juristisch',
          Firma: 'Zwölf Äpfel GmbH',
          Ansprechpartner: 'Greta Groß',
          Gruendungsdatum: '2001-02-03',
        },
      });
      expect(Object.keys((legal.body as Hit[])[0].Person).sort()).toEqual([
        'Ansprechpartner',
        'Firma',
        'Gruendungsdatum',
        'Typ',
      ]);
      const natural = await search('q=Quastenflosser').expect(200);
      expect(natural.body).toEqual([expect.objectContaining({ Id: c.quasten, Hauptwohnsitz: null })]);
    });
  });

  describe('what matches', () => {
    it.each([
      ['last name', 'Quastenflosser', 'quasten'],
      ['first name', 'Zacharias', 'quasten'],
      ['company name', 'Zwölf', 'firma'],
      ['contact person', 'Greta', 'firma'],
      ['e-mail address', 'hans.mueller@beispiel.de', 'hans'],
      ['e-mail address in another case', 'HANS.MUELLER@BEISPIEL.DE', 'hans'],
      ['the beginning of an e-mail address', 'info@zwoelf', 'firma'],
      ['phone number as stored', '0171 2345678', 'hans'],
      ['phone number without spaces', '01712345678', 'hans'],
      ['phone number in international form', '+49 171 2345678', 'hans'],
      ['phone number grouped otherwise', '0171/234 56-78', 'hans'],
      ['phone number stored internationally, searched nationally', '030 9876543', 'firma'],
      ['postal code', '50667', 'obermueller'],
      ['city', 'Erfurt', 'wegner'],
      ['street', 'Gartenweg', 'obermueller'],
      ['street and city', 'Lindenstraße Berlin', 'hans'],
    ])('finds by %s (%s)', async (_kind, q, customer) => {
      expect(await found(q)).toEqual([c[customer]]);
    });

    it('finds by customer id, the exact id first', async () => {
      const ids = await found(c.wegner);
      expect(ids[0]).toBe(c.wegner);
    });

    it('needs every word of q (first and last name, name and city)', async () => {
      expect(await found('Hans Müller')).toEqual([c.hans]);
      expect(await found('Müller Hans')).toEqual([c.hans]);
      expect(await found('Hans Berlin')).toEqual([c.hans]);
      const response = await search('q=Hans%20K%C3%B6ln').expect(200);
      expect(response.body).toEqual([]);
      expect(response.headers['x-svc-total']).toBe('0');
    });

    it('takes _ and % in a query literally, not as wildcards', async () => {
      expect(await found('Berlin')).toContain(c.hans);
      for (const q of ['Berl_n@', 'Ber%n@', 'M%ller@', 'Hans Berl_n@']) expect(await found(q)).toEqual([]);
    });

    it('reads digits with blanks too short for a phone number as several terms (postal code and house number)', async () => {
      expect(await found('101 12')).toContain(c.hans);
      expect(await found('200 12')).not.toContain(c.hans);
    });

    it.each(['Müller', 'mueller', 'MÜLLER', 'Mueller', 'MUELLER'])(
      'ignores case and umlaut spelling: %s finds Müller and Mueller',
      async (q) => {
        const ids = await found(q);
        expect(ids).toEqual(expect.arrayContaining([c.hans, c.petra]));
      },
    );

    it('reads a spelling without umlaut dots (muller) as Müller, not as Mueller', async () => {
      const ids = await found('muller');
      expect(ids).toEqual(expect.arrayContaining([c.hans, c.muellerschoen, c.obermueller]));
      expect(ids).not.toContain(c.petra);
    });

    it.each(['Schloßallee', 'schlossallee', 'SCHLOSSALLEE', 'Schlossallee 7'])(
      'treats ß as ss: %s',
      async (q) => {
        expect(await found(q)).toEqual([c.firma]);
      },
    );

    it.each(['Hauptstraße', 'hauptstrasse', 'Hauptstr.', 'straße Erfurt'])('finds streets: %s', async (q) => {
      expect(await found(q)).toContain(c.wegner);
    });

    it.each([
      ['a word beginning', 'Quasten', 'quasten'],
      ['a word end', 'flosser', 'quasten'],
      ['the inside of a word', 'stenflo', 'quasten'],
      ['a beginning with an umlaut', 'Obermü', 'obermueller'],
      ['two letters at a word beginning', 'Qu', 'quasten'],
      ['one letter and a word', 'Z Quasten', 'quasten'],
    ])('finds partial words: %s (%s)', async (_kind, q, customer) => {
      expect(await found(q)).toContain(c[customer]);
    });

    it('matches fragments of fewer than five letters only at word beginnings', async () => {
      expect(await found('fl')).not.toContain(c.quasten);
      expect(await found('floss')).toEqual([c.quasten]);
      expect(await found('loss')).not.toContain(c.quasten);
      expect(await found('Zacharias os')).toEqual([]);
    });

    it('matches numbers and e-mail addresses whole or from their beginning', async () => {
      expect(await found('0171')).toContain(c.hans);
      expect(await found('101')).toEqual(expect.arrayContaining([c.hans]));
      expect(await found('hans.mueller@')).toEqual([c.hans]);
      expect(await found('2345678')).toEqual([]);
      expect(await found('mueller@beispiel.de')).toEqual([]);
    });
  });

  describe('ranking', () => {
    it('puts whole-word hits first, then word beginnings, then hits inside words; ties by id', async () => {
      // Müller and Mueller are whole words; Müllerschön begins with it; Obermüller holds it inside.
      expect(await found('Müller')).toEqual([c.hans, c.petra, c.muellerschoen, c.obermueller]);
    });

    it('ranks an exact e-mail address before longer ones that begin with it', async () => {
      const id = await insertCustomer('V1000', { first: 'Johannes', last: 'Rangfolge' }, undefined, [
        ['email', 'hans.mueller@beispiel.dev'],
      ]);
      expect(await found('hans.mueller@beispiel.de')).toEqual([c.hans, id]);
      await db.query('DELETE FROM broker.customer WHERE id = $1', [id]);
    });
  });

  describe('customers with several matching words', () => {
    const k: Record<string, string> = {};

    beforeAll(async () => {
      // Kranich as a whole word (three times for one customer), at word beginnings and inside words.
      k.whole = await insertCustomer(
        'V1000',
        { first: 'Kurt', last: 'Kranich' },
        { street: 'Kranichweg 1', postalCode: '64295', city: 'Kranichstein' },
        [['email', 'kranich@vogelflug.example']],
      );
      k.inside = await insertCustomer('V1001', { first: 'Olga', last: 'Oberkranich' });
      k.both = await insertCustomer(
        'V1000',
        { first: 'Bea', last: 'Kranichsfeld' },
        { street: 'Am Unterkranichbach 2', postalCode: '99084', city: 'Erfurt' },
      );
      k.beginning = await insertCustomer('V1003', { first: 'Kai', last: 'Kranichsteiner' });
      k.twoInside = await insertCustomer(
        'V1000',
        { first: 'Ida', last: 'Hinterkranich' },
        { street: 'Vorderkranichgasse 5', postalCode: '50667', city: 'Köln' },
      );
      await insertCustomer('V2000', { first: 'Fremd', last: 'Kranich' });
    });

    it('finds and counts each customer once, by its best word', async () => {
      const response = await search('q=Kranich').expect(200);
      expect(response.headers['x-svc-total']).toBe('5');
      expect((response.body as Hit[]).map((hit) => hit.Id)).toEqual([
        k.whole,
        k.both,
        k.beginning,
        k.inside,
        k.twoInside,
      ]);
      expect(await found('Kranichs')).toEqual([k.whole, k.both, k.beginning]);
      // Too short to match inside words.
      expect(await found('Kran')).toEqual([k.whole, k.both, k.beginning]);
    });

    it('pages through word beginnings into hits inside words with the same total', async () => {
      const pages: string[] = [];
      for (const from of [0, 2, 4]) {
        const page = await search(`q=Kranich&from=${from}&size=2`).expect(200);
        expect(page.headers['x-svc-total']).toBe('5');
        pages.push(...(page.body as Hit[]).map((hit) => hit.Id));
      }
      expect(pages).toEqual([k.whole, k.both, k.beginning, k.inside, k.twoInside]);
      const insideOnly = await search('q=Kranich&from=3&size=1').expect(200);
      expect((insideOnly.body as Hit[]).map((hit) => hit.Id)).toEqual([k.inside]);
    });

    it('needs every term of q on the same customer however many words match each', async () => {
      expect(await found('Kranich Kurt')).toEqual([k.whole]);
      expect(await found('Kranich Erfurt')).toEqual([k.both]);
      expect(await found('Vorderkranichgasse Hinterkranich')).toEqual([k.twoInside]);
      expect(await found('Kranich Olga')).toEqual([k.inside]);
    });
  });

  describe('queries of several terms with many hits each', () => {
    const frogs: string[] = [];

    beforeAll(async () => {
      // More customers than are checked on their documents: the other terms are then read from the index.
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO broker.customer (tenant_id, broker_id, person_type, first_name, last_name)
         SELECT $1, $2, 'natuerlich', CASE WHEN n % 3 = 0 THEN 'Zebulon' ELSE 'Anna' END, 'Breitmaulfrosch'
           FROM generate_series(1, 600) n RETURNING id::text`,
        [tenantId, brokers.V1000],
      );
      frogs.push(...rows.map((row) => row.id));
      await db.query(
        `INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, postal_code, city)
         SELECT tenant_id, id, 0, 'hauptwohnsitz', '99999', CASE WHEN id % 2 = 0 THEN 'Teichstadt' ELSE 'Oberteichstadt' END
           FROM broker.customer WHERE last_name = 'Breitmaulfrosch'`,
      );
    });

    it('answers the same whichever term is the most selective', async () => {
      const byId = (ids: string[]) => [...ids].sort((a, b) => Number(a) - Number(b));
      const even = frogs.filter((id) => Number(id) % 2 === 0);
      const odd = frogs.filter((id) => Number(id) % 2 !== 0);
      // Both terms have 600 customers: the index ranges of the second are read.
      const broad = await search('q=Breitmaulfrosch%20Teichstadt&size=200').expect(200);
      expect(broad.headers['x-svc-total']).toBe('600');
      expect((broad.body as Hit[]).map((hit) => hit.Id)).toEqual([...byId(even), ...byId(odd)].slice(0, 200));
      // 200 Zebulons: the other terms are checked on their documents.
      const zebulons = frogs.filter((_id, index) => (index + 1) % 3 === 0);
      const narrow = await search('q=Zebulon%20Breitmaulfrosch%20Teichstadt&size=200').expect(200);
      expect(narrow.headers['x-svc-total']).toBe('200');
      expect((narrow.body as Hit[]).map((hit) => hit.Id)).toEqual([
        ...byId(zebulons.filter((id) => Number(id) % 2 === 0)),
        ...byId(zebulons.filter((id) => Number(id) % 2 !== 0)),
      ]);
      const prefixes = await search('q=Zebul%20Breitmaul&size=0').expect(200);
      expect(prefixes.headers['x-svc-total']).toBe('200');
      expect(await found('Zebulon Oberteich')).toEqual(
        byId(zebulons.filter((id) => Number(id) % 2 !== 0)).slice(0, 50),
      );
    });
  });

  describe('paging and X-Svc-Total', () => {
    const paged: string[] = [];

    beforeAll(async () => {
      for (let n = 0; n < 25; n += 1)
        paged.push(
          await insertCustomer(n % 2 ? 'V1001' : 'V1000', { first: `Kunde${n}`, last: 'Seitenweise' }),
        );
      for (let n = 0; n < 3; n += 1) await insertCustomer('V2000', { first: 'Fremd', last: 'Seitenweise' });
    });

    it('answers at most size hits from from, with the exact total of visible hits', async () => {
      const all = await search('q=Seitenweise').expect(200);
      expect(all.headers['x-svc-total']).toBe('25');
      expect((all.body as Hit[]).map((hit) => hit.Id)).toEqual(paged);

      const pages: string[] = [];
      for (const from of [0, 10, 20]) {
        const page = await search(`q=Seitenweise&from=${from}&size=10`).expect(200);
        expect(page.headers['x-svc-total']).toBe('25');
        pages.push(...(page.body as Hit[]).map((hit) => hit.Id));
      }
      expect(pages).toEqual(paged);

      const beyond = await search('q=Seitenweise&from=30&size=10').expect(200);
      expect(beyond.body).toEqual([]);
      expect(beyond.headers['x-svc-total']).toBe('25');
      const countOnly = await search('q=Seitenweise&size=0').expect(200);
      expect(countOnly.body).toEqual([]);
      expect(countOnly.headers['x-svc-total']).toBe('25');
    });

    it('defaults size to 50 and accepts the maximum, 200', async () => {
      for (let n = 0; n < 30; n += 1)
        await insertCustomer('V1000', { first: `Mehr${n}`, last: 'Seitenweise' });
      const byDefault = await search('q=Seitenweise').expect(200);
      expect(byDefault.body).toHaveLength(50);
      expect(byDefault.headers['x-svc-total']).toBe('55');
      const maximum = await search('q=Seitenweise&size=200').expect(200);
      expect(maximum.body).toHaveLength(55);
    });

    it("counts only the caller's customers for another broker's client", async () => {
      const response = await search('q=Seitenweise', { client: FIXTURE_API_CLIENTS.other }).expect(200);
      expect(response.headers['x-svc-total']).toBe('3');
      expect(response.body).toHaveLength(3);
    });
  });

  describe('the POST form', () => {
    it('filters by mail (any case) and id, and answers like GET without filters', async () => {
      expect(await found('Müller', { body: { mail: 'HANS.mueller@beispiel.DE' } })).toEqual([c.hans]);
      expect(await found('Müller', { body: { id: c.obermueller } })).toEqual([c.obermueller]);
      expect(await found('Müller', { body: { mail: 'hans.mueller@beispiel.de', id: c.hans } })).toEqual([
        c.hans,
      ]);
      expect(await found('Müller', { body: { mail: 'hans.mueller@beispiel.de', id: c.petra } })).toEqual([]);
      expect(await found('Müller', { body: {} })).toEqual(await found('Müller'));
      expect(await found('Müller', { body: { mail: null, id: null } })).toEqual(await found('Müller'));
      expect(await found('Hans Müller', { body: { mail: 'hans.mueller@beispiel.de' } })).toEqual([c.hans]);
      expect(await found('Hans Müller', { body: { id: c.petra } })).toEqual([]);
      const filtered = await search('q=M%C3%BCller', { body: { mail: 'nobody@example.com' } }).expect(200);
      expect(filtered.body).toEqual([]);
      expect(filtered.headers['x-svc-total']).toBe('0');
    });

    it('still needs q to match, and never finds customers of other brokers', async () => {
      expect(await found('Quastenflosser', { body: { id: c.hans } })).toEqual([]);
      expect(await found('Müller', { body: { id: c.otherMueller } })).toEqual([]);
      expect(await found('Müller', { body: { mail: 'other.mueller@beispiel.de' } })).toEqual([]);
    });

    it('answers without a body like GET', async () => {
      const response = await service.call('post', searchPath('q=Quastenflosser')).expect(200);
      expect((response.body as Hit[]).map((hit) => hit.Id)).toEqual([c.quasten]);
      expect(response.headers['x-svc-total']).toBe('1');
    });

    it.each([
      [{ name: 'x' }, 'property name should not exist'],
      [{ id: 'abc' }, 'id must be a customer id (a positive whole number)'],
      [{ id: 12 }, 'id must be a string'],
      [{ mail: 5 }, 'mail must be a string'],
      [{ mail: '' }, 'mail should not be empty'],
      [{ mail: `${'x'.repeat(250)}@x.de` }, 'mail must be shorter than or equal to 254 characters'],
    ])('refuses the body %j with 400', async (body, message) => {
      const response = await search('q=M%C3%BCller', { body }).expect(400);
      expect(response.body).toEqual({ Meldungen: expect.arrayContaining([message]) });
    });
  });

  describe('visibility', () => {
    it("finds the customers of the client's broker and of the brokers below it", async () => {
      expect(await found('Bernd Unten')).toEqual([service.customers.v1003Customer]);
      expect(await found('Zwölf Äpfel')).toEqual([c.firma]);
      expect(await found('Clara Fremd')).toEqual([]);
    });

    it("finds nothing of V1000's customers for V2000's client", async () => {
      const options = { client: FIXTURE_API_CLIENTS.other };
      expect(await found('Müller', options)).toEqual([c.otherMueller]);
      expect(await found('Clara Fremd', options)).toEqual([service.customers.v2000Customer]);
      for (const q of ['Quastenflosser', 'Bernd Unten', 'Zwölf', '50667']) {
        const response = await search(`q=${encodeURIComponent(q)}`, options).expect(200);
        expect(response.body).toEqual([]);
        expect(response.headers['x-svc-total']).toBe('0');
      }
    });
  });

  describe('refused requests', () => {
    it.each([
      ['', 'q is required'],
      ['q=', 'q must hold at least one character'],
      ['q=%20%20', 'q must hold at least one letter or digit'],
      ['q=---', 'q must hold at least one letter or digit'],
      [`q=${'x'.repeat(201)}`, 'q must be shorter than or equal to 200 characters'],
      [`q=${Array.from({ length: 11 }, (_, n) => `w${n}`).join('%20')}`, 'q may hold at most 10 words'],
      ['q=a&q=b', 'q must be a string'],
      ['q=a&size=201', 'size must not be greater than 200'],
      ['q=a&size=-1', 'size must not be less than 0'],
      ['q=a&from=-1', 'from must not be less than 0'],
      ['q=a&size=abc', 'size must be a whole number'],
      ['q=a&from=1.5', 'from must be a whole number'],
      ['q=a&from=', 'from must be a whole number'],
      ['q=a&from=2147483648', 'from must not be greater than 2147483647'],
      ['q=a&page=2', 'property page should not exist'],
    ])('GET ?%s: 400 with %s', async (query, message) => {
      const response = await search(query).expect(400);
      expect(response.body).toEqual({ Meldungen: [message] });
    });

    it('refuses the same parameters on POST', async () => {
      const response = await search('q=a&size=500', { body: {} }).expect(400);
      expect((response.body as { Meldungen: string[] }).Meldungen).toEqual([
        'size must not be greater than 200',
      ]);
    });
  });

  describe('maintenance of the search', () => {
    it('finds customers created and changed through the API at once', async () => {
      const path = (rest: string) => service.employeePath(rest);
      const created = await service
        .call('post', path('/kunden'), {
          body: {
            Person: { Typ: 'natuerlich', Vorname: 'Friedrich', Nachname: 'Neuanlage' },
            Kontaktdaten: [
              { Kontext: 'privat', Typ: 'email', Value: 'friedrich@neuanlage.example' },
              { Kontext: 'privat', Typ: 'telefon', Value: '0221 555123' },
            ],
          },
        })
        .expect(200);
      const id = (created.body as { Id: string }).Id;
      expect(await found('Neuanlage')).toEqual([id]);
      expect(await found('friedrich@neuanlage.example')).toEqual([id]);
      expect(await found('0221/555 123')).toEqual([id]);

      await service
        .call('put', path(`/kunden/${id}/adressen/0`), {
          body: { Strasse: 'Domplatz 1', Postleitzahl: '50668', Ort: 'Köln' },
        })
        .expect(200);
      expect(await found('Neuanlage Köln')).toEqual([id]);
      expect(await found('50668')).toEqual([id]);
      await service.call('put', path(`/kunden/${id}/adressen/0`), { body: { Ort: 'Bonn' } }).expect(200);
      expect(await found('Neuanlage Köln')).toEqual([]);
      expect(await found('Neuanlage Bonn')).toEqual([id]);

      const second = await service
        .call('post', path(`/kunden/${id}/adressen`), {
          body: { Typ: 'nebenwohnsitz', Strasse: 'Seeweg 2', Postleitzahl: '18055', Ort: 'Rostock' },
        })
        .expect(200);
      expect(await found('Neuanlage Rostock')).toEqual([id]);
      await service
        .call('delete', path(`/kunden/${id}/adressen/${(second.body as { Id: string }).Id}`))
        .expect(204);
      expect(await found('Neuanlage Rostock')).toEqual([]);

      const contacts = await service.call('get', path(`/kunden/${id}/kontaktdaten`)).expect(200);
      const email = (contacts.body as { Id: string; Typ: string }[]).find((entry) => entry.Typ === 'email');
      await service
        .call('put', path(`/kunden/${id}/kontaktdaten/${email?.Id}`), {
          body: { Value: 'fritz@geaendert.example' },
        })
        .expect(200);
      expect(await found('friedrich@neuanlage.example')).toEqual([]);
      expect(await found('fritz@geaendert.example')).toEqual([id]);
      await service.call('delete', path(`/kunden/${id}/kontaktdaten/${email?.Id}`)).expect(204);
      expect(await found('fritz@geaendert.example')).toEqual([]);
      await service
        .call('post', path(`/kunden/${id}/kontaktdaten`), {
          body: { Kontext: 'geschaeftlich', Typ: 'mobil', Value: '+49 160 7654321' },
        })
        .expect(200);
      expect(await found('01607654321')).toEqual([id]);

      await service
        .call('put', path(`/kunden/${id}`), {
          body: { Person: { Typ: 'natuerlich', Nachname: 'Umbenannt' } },
        })
        .expect(200);
      expect(await found('Neuanlage')).toEqual([]);
      expect(await found('Friedrich Umbenannt')).toEqual([id]);
      expect(await staleSearchRows()).toBe(0);
    });

    it('follows a customer moved to another broker, and forgets a deleted one', async () => {
      const id = await insertCustomer('V1000', { first: 'Wander', last: 'Vogelsang' });
      expect(await found('Vogelsang')).toEqual([id]);
      await db.query('UPDATE broker.customer SET broker_id = $1 WHERE id = $2', [brokers.V2000, id]);
      expect(await found('Vogelsang')).toEqual([]);
      expect(await found('Vogelsang', { client: FIXTURE_API_CLIENTS.other })).toEqual([id]);
      await db.query('DELETE FROM broker.customer WHERE id = $1', [id]);
      expect(await found('Vogelsang', { client: FIXTURE_API_CLIENTS.other })).toEqual([]);
      const { rows } = await db.query('SELECT 1 FROM broker.customer_search WHERE customer_id = $1', [id]);
      expect(rows).toEqual([]);
    });

    it('keeps documents, word index and vocabulary of a set-based write current', async () => {
      await db.query(
        `INSERT INTO broker.customer (tenant_id, broker_id, person_type, first_name, last_name)
         SELECT $1, $2, 'natuerlich', 'Massen' || n, 'Importkunde' FROM generate_series(1, 500) n`,
        [tenantId, brokers.V1000],
      );
      await db.query(
        `INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, postal_code, city)
         SELECT tenant_id, id, 0, 'hauptwohnsitz', '01067', 'Dresden' FROM broker.customer
          WHERE last_name = 'Importkunde'`,
      );
      const response = await search('q=Importkunde%20Dresden&size=0').expect(200);
      expect(response.headers['x-svc-total']).toBe('500');
      expect(await staleSearchRows()).toBe(0);
    });
  });
});
