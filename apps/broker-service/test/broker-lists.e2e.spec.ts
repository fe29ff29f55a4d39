import type { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { FIXTURE_API_CLIENTS } from './employee-fixture.js';
import { BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

const CACHE_CONTROL = 'private, must-revalidate, max-age=3600';
/** An IMF-fixdate, as Last-Modified carries it: `Sat, 21 Nov 2026 00:00:00 GMT`. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The same HTTP date `ms` milliseconds earlier. */
const earlier = (httpDate: string, ms: number) => new Date(Date.parse(httpDate) - ms).toUTCString();

describe('broker service: lists (laender, gesellschaften)', () => {
  let service: EmployeeTestService;
  let db: Client;
  let tenantId: string;
  const brokers: Record<string, string> = {};
  const companies: Record<string, string> = {};
  let policyNo = 0;

  const get = (path: string, headers: Record<string, string> = {}, client = FIXTURE_API_CLIENTS.main) =>
    service.call('get', `${BROKER_BASE}${path}`, { headers, client });

  /** A new company of the tenant; returns its id. */
  async function addCompany(vuNumber: string, name: string): Promise<string> {
    const result = await db.query<{ id: string }>(
      'INSERT INTO broker.company (tenant_id, vu_number, name) VALUES ($1, $2, $3) RETURNING id::text',
      [tenantId, vuNumber, name],
    );
    companies[vuNumber] = result.rows[0].id;
    return result.rows[0].id;
  }

  /** A contract of broker `broker` (number) with company `vuNumber`, for the fixture's V1000 customer. */
  async function addContract(broker: string, vuNumber: string): Promise<string> {
    const result = await db.query<{ id: string }>(
      `INSERT INTO broker.contract (tenant_id, broker_id, customer_id, company_id, line_of_business, policy_number,
                                    status)
       VALUES ($1, $2, $3, $4, 'KFZ', $5, 'aktiv') RETURNING id::text`,
      [tenantId, brokers[broker], service.customers.v1000Customer, companies[vuNumber], `P-${++policyNo}`],
    );
    return result.rows[0].id;
  }

  /** contract_count and changed_at of (broker, company), undefined without a row. */
  async function brokerCompany(
    broker: string,
    vuNumber: string,
  ): Promise<{ contract_count: number; changed_at: Date } | undefined> {
    const result = await db.query<{ contract_count: number; changed_at: Date }>(
      `SELECT contract_count::int, changed_at FROM broker.broker_company
        WHERE tenant_id = $1 AND broker_id = $2 AND company_id = $3`,
      [tenantId, brokers[broker], companies[vuNumber]],
    );
    return result.rows[0];
  }

  /**
   * Moves every time a company list's Last-Modified is made of one hour into the past, so that a change made
   * now gives a later Last-Modified even at the one-second granularity of HTTP dates. The touch triggers of
   * company and company_agreement would set updated_at to now(), so they are off for this update.
   */
  async function pushTimestampsBack(): Promise<void> {
    await db.query('BEGIN');
    try {
      await db.query('ALTER TABLE broker.company DISABLE TRIGGER broker_company_touch');
      await db.query('ALTER TABLE broker.company_agreement DISABLE TRIGGER broker_company_agreement_touch');
      await db.query(`UPDATE broker.broker_company SET changed_at = changed_at - interval '1 hour'`);
      await db.query(`UPDATE broker.company_agreement SET updated_at = updated_at - interval '1 hour'`);
      await db.query(`UPDATE broker.company SET updated_at = updated_at - interval '1 hour'`);
      await db.query(`UPDATE broker.broker SET created_at = created_at - interval '1 hour'`);
      await db.query('ALTER TABLE broker.company ENABLE TRIGGER broker_company_touch');
      await db.query('ALTER TABLE broker.company_agreement ENABLE TRIGGER broker_company_agreement_touch');
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK');
      throw error;
    }
  }

  /** GET V1000/gesellschaften after pushing the timestamps back: its Last-Modified, which must then revalidate. */
  async function settledLastModified(broker = 'V1000'): Promise<string> {
    await pushTimestampsBack();
    const response = await get(`/${broker}/gesellschaften`).expect(200);
    const lastModified = response.headers['last-modified'];
    expect(Date.now() - Date.parse(lastModified)).toBeGreaterThan(59 * 60 * 1000);
    await get(`/${broker}/gesellschaften`, { 'If-Modified-Since': lastModified }).expect(304);
    return lastModified;
  }

  beforeAll(async () => {
    service = await startEmployeeTestService();
    db = service.db;
    const brokerRows = await db.query<{ broker_number: string; id: string; tenant_id: string }>(
      'SELECT broker_number, id::text, tenant_id::text FROM broker.broker',
    );
    for (const broker of brokerRows.rows) brokers[broker.broker_number] = broker.id;
    tenantId = brokerRows.rows[0].tenant_id;
    const companyRows = await db.query<{ vu_number: string; id: string }>(
      'SELECT vu_number, id::text FROM broker.company',
    );
    for (const company of companyRows.rows) companies[company.vu_number] = company.id;
  });
  afterAll(async () => {
    await service?.close();
  });

  describe('GET {base}/laender', () => {
    it('answers every country as {Value, Text}, cacheable', async () => {
      const response = await get('/laender').expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual(expect.arrayContaining([{ Value: 'DE', Text: 'Deutschland' }]));
      expect((response.body as unknown[]).length).toBeGreaterThan(200);
      for (const item of response.body as Record<string, unknown>[]) {
        expect(item).toEqual({ Value: expect.stringMatching(/^[A-Z]{2}$/), Text: expect.any(String) });
      }
      expect(response.headers['last-modified']).toMatch(HTTP_DATE);
      expect(response.headers['cache-control']).toBe(CACHE_CONTROL);
    });

    it('answers 304 without a body to If-Modified-Since = Last-Modified, with the same headers', async () => {
      const first = await get('/laender').expect(200);
      const lastModified = first.headers['last-modified'];
      const response = await get('/laender', { 'If-Modified-Since': lastModified }).expect(304);
      expect(response.text ?? '').toBe('');
      expect(response.headers['last-modified']).toBe(lastModified);
      expect(response.headers['cache-control']).toBe(CACHE_CONTROL);
    });

    it('accepts the obsolete HTTP date forms (RFC 850, asctime) too', async () => {
      const now = new Date();
      const [day, date, month, year, time] = now.toUTCString().replace(',', '').split(' ');
      const weekday = {
        Sun: 'Sunday',
        Mon: 'Monday',
        Tue: 'Tuesday',
        Wed: 'Wednesday',
        Thu: 'Thursday',
        Fri: 'Friday',
        Sat: 'Saturday',
      }[day];
      await get('/laender', {
        'If-Modified-Since': `${weekday}, ${date}-${month}-${year.slice(2)} ${time} GMT`,
      }).expect(304);
      await get('/laender', {
        'If-Modified-Since': `${day} ${month} ${date.replace(/^0/, ' ')} ${time} ${year}`,
      }).expect(304);
    });

    it('answers 200 to an If-Modified-Since a day before Last-Modified', async () => {
      const lastModified = (await get('/laender').expect(200)).headers['last-modified'];
      const response = await get('/laender', { 'If-Modified-Since': earlier(lastModified, DAY_MS) }).expect(
        200,
      );
      expect(response.body).toEqual(expect.arrayContaining([{ Value: 'DE', Text: 'Deutschland' }]));
      expect(response.headers['last-modified']).toBe(lastModified);
    });

    it.each([
      ['gestern'],
      ['Mon, 99 Foo 2026 25:61:61 GMT'],
      [''],
      ['2030'],
      ['99999'],
      ['Sun 2099'],
      ['2099-01-01T00:00:00Z'],
      [new Date(Date.now() + DAY_MS).toUTCString()],
    ])(
      'ignores the If-Modified-Since %j, not an HTTP date or in the future, and answers 200',
      async (since) => {
        const response = await get('/laender', { 'If-Modified-Since': since }).expect(200);
        expect(response.body).toEqual(expect.arrayContaining([{ Value: 'DE', Text: 'Deutschland' }]));
        expect(response.headers['cache-control']).toBe(CACHE_CONTROL);
      },
    );

    it('refuses a request without the header group with 400', async () => {
      const response = await request(service.app.getHttpServer() as App)
        .get(`${BROKER_BASE}/laender`)
        .expect(400);
      expect(response.body).toEqual({ Meldungen: expect.arrayContaining([expect.any(String)]) });
    });
  });

  describe('GET {base}/{vmt}/gesellschaften', () => {
    beforeAll(async () => {
      await db.query(
        `INSERT INTO broker.company_agreement (tenant_id, broker_id, company_id, agency_number)
         VALUES ($1, $2, $3, 'AG-4711')`,
        [tenantId, brokers.V1000, companies['5512']],
      );
      await addContract('V1000', '9999');
    });

    it('lists the companies of agreements and of contracts, sorted by name, cacheable', async () => {
      const response = await get('/V1000/gesellschaften').expect(200);
      expect(response.body).toEqual([
        { Id: '5512', Name: 'HDI-Gerling Firmen und Privat' },
        { Id: '9999', Name: 'XXX Versicherung AG' },
      ]);
      const lastModified = response.headers['last-modified'];
      expect(lastModified).toMatch(HTTP_DATE);
      expect(Math.abs(Date.now() - Date.parse(lastModified))).toBeLessThan(5 * 60 * 1000);
      expect(response.headers['cache-control']).toBe(CACHE_CONTROL);

      const revalidated = await get('/V1000/gesellschaften', { 'If-Modified-Since': lastModified }).expect(
        304,
      );
      expect(revalidated.text ?? '').toBe('');
      expect(revalidated.headers['last-modified']).toBe(lastModified);
      expect(revalidated.headers['cache-control']).toBe(CACHE_CONTROL);

      const older = await get('/V1000/gesellschaften', {
        'If-Modified-Since': earlier(lastModified, 1000),
      }).expect(200);
      expect(older.body).toEqual(response.body);
      await get('/V1000/gesellschaften', { 'If-Modified-Since': 'kein Datum' }).expect(200);
    });

    it('adds the company of a new contract and moves Last-Modified', async () => {
      await addCompany('1234', 'Alte Leipziger Versicherung AG');
      const before = await settledLastModified();

      await addContract('V1000', '1234');
      const response = await get('/V1000/gesellschaften', { 'If-Modified-Since': before }).expect(200);
      expect(response.body).toEqual([
        { Id: '1234', Name: 'Alte Leipziger Versicherung AG' },
        { Id: '5512', Name: 'HDI-Gerling Firmen und Privat' },
        { Id: '9999', Name: 'XXX Versicherung AG' },
      ]);
      const lastModified = response.headers['last-modified'];
      expect(Date.parse(lastModified)).toBeGreaterThan(Date.parse(before));
      await get('/V1000/gesellschaften', { 'If-Modified-Since': lastModified }).expect(304);
    });

    it('keeps Last-Modified for a further contract with a company already listed', async () => {
      const before = await settledLastModified();
      await addContract('V1000', '9999');
      await get('/V1000/gesellschaften', { 'If-Modified-Since': before }).expect(304);
    });

    it('takes away the company of deleted contracts once the last is gone, and only then moves Last-Modified', async () => {
      await addCompany('1235', 'Barmenia Versicherungen');
      const first = await addContract('V1000', '1235');
      const second = await addContract('V1000', '1235');
      const before = await settledLastModified();

      await db.query('DELETE FROM broker.contract WHERE id = $1', [first]);
      const still = await get('/V1000/gesellschaften', { 'If-Modified-Since': before });
      expect(still.status).toBe(304);

      await db.query('DELETE FROM broker.contract WHERE id = $1', [second]);
      const response = await get('/V1000/gesellschaften', { 'If-Modified-Since': before }).expect(200);
      expect(response.body).not.toContainEqual(expect.objectContaining({ Id: '1235' }));
      expect(response.body).toContainEqual({ Id: '9999', Name: 'XXX Versicherung AG' });
      expect(Date.parse(response.headers['last-modified'])).toBeGreaterThan(Date.parse(before));
    });

    it('moves Last-Modified when a listed company is renamed', async () => {
      const before = await settledLastModified();
      await db.query(`UPDATE broker.company SET name = 'XXX Versicherung SE' WHERE id = $1`, [
        companies['9999'],
      ]);
      try {
        const response = await get('/V1000/gesellschaften', { 'If-Modified-Since': before }).expect(200);
        expect(response.body).toContainEqual({ Id: '9999', Name: 'XXX Versicherung SE' });
        expect(Date.parse(response.headers['last-modified'])).toBeGreaterThan(Date.parse(before));
      } finally {
        await db.query(`UPDATE broker.company SET name = 'XXX Versicherung AG' WHERE id = $1`, [
          companies['9999'],
        ]);
      }
    });

    it('adds the company of a new agreement and moves Last-Modified', async () => {
      await addCompany('4711', 'Zurich Insurance plc');
      const before = await settledLastModified();
      await db.query(
        `INSERT INTO broker.company_agreement (tenant_id, broker_id, company_id) VALUES ($1, $2, $3)`,
        [tenantId, brokers.V1000, companies['4711']],
      );
      const response = await get('/V1000/gesellschaften', { 'If-Modified-Since': before }).expect(200);
      expect(response.body).toContainEqual({ Id: '4711', Name: 'Zurich Insurance plc' });
      expect(Date.parse(response.headers['last-modified'])).toBeGreaterThan(Date.parse(before));
    });

    it('takes away the company of a deleted agreement and moves Last-Modified', async () => {
      await addCompany('4712', 'Gothaer Allgemeine AG');
      await db.query(
        `INSERT INTO broker.company_agreement (tenant_id, broker_id, company_id) VALUES ($1, $2, $3)`,
        [tenantId, brokers.V1000, companies['4712']],
      );
      const before = await settledLastModified();
      await db.query('DELETE FROM broker.company_agreement WHERE company_id = $1', [companies['4712']]);
      // A client that cached the list with the agreement's company must not be told it is still current.
      const response = await get('/V1000/gesellschaften', { 'If-Modified-Since': before });
      expect(response.status).toBe(200);
      expect(response.body).not.toContainEqual(expect.objectContaining({ Id: '4712' }));
      expect(Date.parse(response.headers['last-modified'])).toBeGreaterThan(Date.parse(before));
    });

    describe('broker_company.contract_count', () => {
      it('counts the contracts of an INSERT, several rows in one statement too', async () => {
        await addCompany('3001', 'Count Eins AG');
        expect(await brokerCompany('V1000', '3001')).toBeUndefined();
        await db.query(
          `INSERT INTO broker.contract (tenant_id, broker_id, customer_id, company_id, line_of_business,
                                        policy_number, status)
           SELECT $1, $2, $3, $4, 'KFZ', 'C-' || n, 'aktiv' FROM generate_series(1, 2) AS n`,
          [tenantId, brokers.V1000, service.customers.v1000Customer, companies['3001']],
        );
        expect(await brokerCompany('V1000', '3001')).toMatchObject({ contract_count: 2 });
        await pushTimestampsBack();
        const settled = (await brokerCompany('V1000', '3001'))!.changed_at;
        // A further contract moves the count but not changed_at: the company was already there.
        await addContract('V1000', '3001');
        expect(await brokerCompany('V1000', '3001')).toEqual({ contract_count: 3, changed_at: settled });
      });

      it('leaves the counts for an UPDATE that changes neither broker nor company', async () => {
        await addCompany('3002', 'Count Zwei AG');
        const contract = await addContract('V1000', '3002');
        await pushTimestampsBack();
        const before = await brokerCompany('V1000', '3002');
        expect(before).toMatchObject({ contract_count: 1 });
        await db.query(
          `UPDATE broker.contract SET status = 'storniert', policy_number = 'X-1' WHERE id = $1`,
          [contract],
        );
        expect(await brokerCompany('V1000', '3002')).toEqual(before);
      });

      it('moves the count of a contract an UPDATE gives to another broker', async () => {
        await addCompany('3003', 'Count Drei AG');
        const moved = await addContract('V1000', '3003');
        await addContract('V1000', '3003');
        await pushTimestampsBack();
        const settled = (await brokerCompany('V1000', '3003'))!.changed_at;

        await db.query('UPDATE broker.contract SET broker_id = $1 WHERE id = $2', [brokers.V1001, moved]);
        expect(await brokerCompany('V1000', '3003')).toEqual({ contract_count: 1, changed_at: settled });
        expect(await brokerCompany('V1001', '3003')).toMatchObject({ contract_count: 1 });
        const v1001 = await get('/V1001/gesellschaften').expect(200);
        expect(v1001.body).toContainEqual({ Id: '3003', Name: 'Count Drei AG' });
      });

      it('moves the count of a contract an UPDATE gives to another company', async () => {
        await addCompany('3004', 'Count Vier AG');
        await addCompany('3005', 'Count Fünf AG');
        const contract = await addContract('V1002', '3004');
        await db.query('UPDATE broker.contract SET company_id = $1 WHERE id = $2', [
          companies['3005'],
          contract,
        ]);
        expect(await brokerCompany('V1002', '3004')).toMatchObject({ contract_count: 0 });
        expect(await brokerCompany('V1002', '3005')).toMatchObject({ contract_count: 1 });
        const response = await get('/V1002/gesellschaften').expect(200);
        expect(response.body).toEqual([{ Id: '3005', Name: 'Count Fünf AG' }]);
      });

      it('counts down on DELETE and moves changed_at when the count reaches zero', async () => {
        await addCompany('3006', 'Count Sechs AG');
        const first = await addContract('V1000', '3006');
        const second = await addContract('V1000', '3006');
        await pushTimestampsBack();
        const settled = (await brokerCompany('V1000', '3006'))!.changed_at;

        await db.query('DELETE FROM broker.contract WHERE id = $1', [first]);
        expect(await brokerCompany('V1000', '3006')).toEqual({ contract_count: 1, changed_at: settled });
        await db.query('DELETE FROM broker.contract WHERE id = $1', [second]);
        const emptied = await brokerCompany('V1000', '3006');
        expect(emptied?.contract_count).toBe(0);
        expect(emptied!.changed_at.getTime()).toBeGreaterThan(settled.getTime() + 30 * 60 * 1000);
        const response = await get('/V1000/gesellschaften').expect(200);
        expect(response.body).not.toContainEqual(expect.objectContaining({ Id: '3006' }));
      });
    });

    it('answers a broker below the caller, an empty list with the headers too', async () => {
      const response = await get('/V1003/gesellschaften').expect(200);
      expect(response.body).toEqual([]);
      expect(response.headers['last-modified']).toMatch(HTTP_DATE);
      expect(response.headers['cache-control']).toBe(CACHE_CONTROL);
      await get('/V1003/gesellschaften', {
        'If-Modified-Since': response.headers['last-modified'],
      }).expect(304);
    });

    it.each([['V2000'], ['V1900'], ['V9999']])(
      'answers 404 for %s, neither the caller nor below it',
      async (broker) => {
        const response = await get(`/${broker}/gesellschaften`).expect(404);
        expect(response.body).toEqual({ Meldungen: [`Vermittler ${broker} does not exist`] });
        expect(response.headers['cache-control']).not.toBe(CACHE_CONTROL);
      },
    );

    it('answers 404 to V2000 for V1000', async () => {
      const response = await get('/V1000/gesellschaften', {}, FIXTURE_API_CLIENTS.other).expect(404);
      expect(response.body).toEqual({ Meldungen: ['Vermittler V1000 does not exist'] });
    });

    it('refuses a request without the header group with 400', async () => {
      const response = await request(service.app.getHttpServer() as App)
        .get(`${BROKER_BASE}/V1000/gesellschaften`)
        .expect(400);
      expect(response.body).toEqual({ Meldungen: expect.arrayContaining([expect.any(String)]) });
    });
  });
});
