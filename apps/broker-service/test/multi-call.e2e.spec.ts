import type { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { refusedByRule } from '@broker/testing';
import { FIXTURE_API_CLIENTS, svcDigestHeaders, svcOtpHeaders } from './employee-fixture.js';
import { BASE, BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import {
  type AnswerPart,
  answerParts,
  asBuffer,
  multipartBody,
  multipartType,
  part,
  type TestPart,
} from './multipart.js';

describe('multi-call (multipart/related) on the broker and employee services', () => {
  let service: EmployeeTestService;
  let db: Client;

  beforeAll(async () => {
    service = await startEmployeeTestService({
      MULTICALL_MAX_PARTS: '25',
      MULTICALL_MAX_PART_BYTES: '4096',
      MULTICALL_MAX_REQUEST_BYTES: '65536',
    });
    db = service.db;
  });
  afterAll(async () => {
    await service?.close();
  });

  function batch(
    base: string,
    parts: readonly TestPart[] | string,
    options: { headers?: Record<string, string>; contentType?: string } = {},
  ) {
    return asBuffer(
      request(service.app.getHttpServer() as App)
        .post(base)
        .set(options.headers ?? svcOtpHeaders(FIXTURE_API_CLIENTS.main))
        .set('Content-Type', options.contentType ?? multipartType())
        .send(typeof parts === 'string' ? parts : multipartBody(parts)),
    );
  }

  /** The answer parts; `refused`: a part breaks a rule of the service beyond its document (refusedByRule). */
  async function answered(base: string, parts: readonly TestPart[], refused = false): Promise<AnswerPart[]> {
    const sent = batch(base, parts);
    const response = await (refused ? refusedByRule(sent) : sent).expect(200);
    expect(response.headers['content-type']).toMatch(/^multipart\/related; boundary=/);
    return answerParts(response.headers['content-type'], response.body as Buffer);
  }

  const patchOf = (city: string) => [part('<w>', 'PATCH', '/vermittler/V1001', { Ort: city })];

  const brokerCity = async (number: string) =>
    (
      await db.query<{ city: string | null }>('SELECT city FROM broker.broker WHERE broker_number = $1', [
        number,
      ])
    ).rows[0].city;

  describe('the spec example: two GETs, one revalidated', () => {
    it('answers both lists, then 304 without a body for the one sent with its Last-Modified', async () => {
      const first = await answered(BROKER_BASE, [
        part('<part-1>', 'GET', '/laender'),
        part('<part-2>', 'GET', '/V1000/gesellschaften'),
      ]);
      expect(first.map((answer) => answer.headers['x-svc-request-id'])).toEqual(['<part-1>', '<part-2>']);
      expect(first.map((answer) => answer.headers['x-svc-status'])).toEqual(['200 OK', '200 OK']);
      expect(first.map((answer) => answer.headers['content-id'])).toEqual(['<response-1>', '<response-2>']);
      const [countries, companies] = first;
      expect(countries.json()).toContainEqual({ Value: 'DE', Text: 'Deutschland' });
      expect(countries.headers['content-type']).toMatch(/^application\/json/);
      expect(countries.headers['cache-control']).toBe('private, must-revalidate, max-age=3600');
      expect(companies.json()).toEqual([]);
      const lastModified = countries.headers['last-modified'];
      expect(new Date(lastModified ?? '').getTime()).not.toBeNaN();

      const second = await answered(BROKER_BASE, [
        part('<part-1>', 'GET', '/laender', undefined, { 'Last-Modified': lastModified ?? '' }),
        part('<part-2>', 'GET', '/V1000/gesellschaften'),
      ]);
      expect(second.map((answer) => answer.headers['x-svc-status'])).toEqual(['304 Not Modified', '200 OK']);
      expect(second[0].text).toBe('');
      expect(second[0].headers['content-type']).toBeUndefined();
      expect(second[0].headers['last-modified']).toBe(lastModified);
      expect(second[0].headers['cache-control']).toBe('private, must-revalidate, max-age=3600');
    });

    it('accepts If-Modified-Since on a part as well, and a part path absolute under the base', async () => {
      const [countries] = await answered(BROKER_BASE, [part('<a>', 'GET', `${BROKER_BASE}/laender`)]);
      const [revalidated] = await answered(BROKER_BASE, [
        part('<a>', 'GET', '/laender', undefined, {
          'If-Modified-Since': countries.headers['last-modified'] ?? '',
        }),
      ]);
      expect(revalidated.status).toBe(304);
    });
  });

  describe('parts run as the single calls they name, in order, as the outer caller', () => {
    it('runs a write before the read that follows it and answers in request order', async () => {
      const customer = service.customers.v1000Customer;
      const parts = await answered(BASE, [
        part('<add>', 'POST', `/01_01/kunden/${customer}/adressen`, {
          Typ: 'nebenwohnsitz',
          Strasse: 'Batchweg 1',
          Postleitzahl: '50667',
          Ort: 'Köln',
          Land: 'DE',
        }),
        part('<list>', 'GET', `/01_01/kunden/${customer}/adressen`),
        part('<patch>', 'PUT', `/01_01/kunden/${customer}`, { PerDu: true }),
        part('<read>', 'GET', `/01_01/kunden/${customer}`),
      ]);
      expect(parts.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      const added = parts[0].json() as { Id: string };
      expect(parts[1].json()).toContainEqual(
        expect.objectContaining({ Id: added.Id, Strasse: 'Batchweg 1' }),
      );
      expect(parts[3].json()).toMatchObject({ Id: customer, PerDu: true });
    });

    it('applies a PATCH of the broker service and answers with the record', async () => {
      const [patched] = await answered(BROKER_BASE, [
        part('<p>', 'PATCH', '/vermittler/V1003', { Ort: 'Bremerhaven' }),
      ]);
      expect(patched.status).toBe(200);
      expect(patched.json()).toMatchObject({ Vermittler: 'V1003', Adresse: { Ort: 'Bremerhaven' } });
      expect(await brokerCity('V1003')).toBe('Bremerhaven');
    });

    it("answers 404 in the part that touches another broker's object, and runs its siblings", async () => {
      const parts = await answered(BROKER_BASE, [
        part('<foreign-list>', 'GET', '/V2000/gesellschaften'),
        part('<foreign-patch>', 'PATCH', '/vermittler/V2000', { Ort: 'Nirgendwo' }),
        part('<own>', 'GET', '/V1001/gesellschaften'),
        part('<foreign-customer>', 'GET', `/01_01/kunden/${service.customers.v2000Customer}`),
      ]);
      expect(parts.map((answer) => answer.status)).toEqual([404, 404, 200, 404]);
      expect(parts[0].json()).toEqual({ Meldungen: [expect.stringContaining('V2000')] });
      expect(await brokerCity('V2000')).toBeNull();
    });

    it('resolves the employee of each part of an employee multi-call: unknown 404, blocked 403', async () => {
      const customer = service.customers.v1000Customer;
      const parts = await answered(BASE, [
        part('<own>', 'GET', `/01_01/kunden/${customer}`),
        part('<unknown>', 'GET', `/77_77/kunden/${customer}`),
        part('<other-broker>', 'GET', `/02_01/kunden/${customer}`),
        part('<blocked>', 'GET', `/01_99/kunden/${customer}`),
      ]);
      expect(parts.map((answer) => answer.status)).toEqual([200, 404, 404, 403]);
      expect(parts[1].json()).toEqual({ Meldungen: ['Employee 77_77 does not exist'] });
      expect(parts[3].json()).toEqual({ Meldungen: ['Employee 01_99 is blocked'] });
    });

    it('answers a part with a bad body or unknown route with that call’s own error', async () => {
      const parts = await answered(BROKER_BASE, [
        part('<bad-json>', 'PATCH', '/vermittler/V1002', '{"Ort": ', { 'Content-Type': 'application/json' }),
        part('<invalid>', 'PATCH', '/vermittler/V1002', { PLZ: '12' }),
        part('<unknown>', 'GET', '/nirgends/hin/weg'),
      ]);
      expect(parts.map((answer) => answer.status)).toEqual([400, 400, 404]);
      expect(parts[1].json()).toEqual({ Meldungen: [expect.stringContaining('PLZ')] });
      for (const answer of parts) expect(answer.headers['content-type']).toMatch(/^application\/json/);
    });

    it('hands a GET part its body, as sendUnterschrifftenlink takes its order', async () => {
      const parts = await answered(
        BASE,
        [
          part('<order>', 'GET', '/01_01/kunden/unterschriftenlinks/_senden', {
            Art: 'maklervollmacht',
            Kommunikationsweg: 'email',
          }),
          part('<after>', 'GET', '/anreden'),
        ],
        true,
      );
      expect(parts.map((answer) => answer.status)).toEqual([400, 200]);
      expect(parts[0].json()).toEqual({ Meldungen: ['KundeId is required on this path'] });
    });

    it('accepts a preamble and an epilogue around the parts (RFC 2046)', async () => {
      const body = `Ein Vorspann.\r\n${multipartBody([part('<p>', 'GET', '/laender')])}Ein Nachspann.\r\n`;
      const response = await batch(BROKER_BASE, body).expect(200);
      const parts = answerParts(response.headers['content-type'], response.body as Buffer);
      expect(parts.map((answer) => answer.status)).toEqual([200]);
    });

    it('answers a document download part with its file and its Content-Disposition, as the single call', async () => {
      const customer = service.customers.v1000Customer;
      const file = `%PDF-1.7\n${'Vollmacht '.repeat(4000)}`; // 40 KB
      const {
        rows: [document],
      } = await db.query<{ id: string; tenant_id: string }>(
        `INSERT INTO broker.document (tenant_id, customer_id, title, file_name, mime_type, size_bytes, sha256, storage_key)
         SELECT tenant_id, id, 'Vollmacht', 'Vollmacht Müller.pdf', 'application/pdf', $2, repeat('0', 64), 'db'
           FROM broker.customer WHERE id = $1
         RETURNING id::text, tenant_id::text`,
        [customer, file.length],
      );
      await db.query(
        'INSERT INTO broker.document_content (document_id, tenant_id, content) VALUES ($1, $2, $3)',
        [document.id, document.tenant_id, Buffer.from(file)],
      );
      const {
        rows: [entry],
      } = await db.query<{ id: string }>(
        `INSERT INTO broker.archive_entry (tenant_id, customer_id, entry_type, title, document_id)
         SELECT tenant_id, id, 'notiz', 'Vollmacht', $2 FROM broker.customer WHERE id = $1 RETURNING id::text`,
        [customer, document.id],
      );
      const path = `/01_01/kunden/${customer}/archiveintraege/${entry.id}/dokument`;
      const single = await service.call('get', `${BASE}${path}`).expect(200);
      const [download] = await answered(BASE, [part('<pdf>', 'GET', path)]);
      expect(download.status).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['content-disposition']).toBe(single.headers['content-disposition']);
      expect(download.headers['content-disposition']).toContain(
        "filename*=UTF-8''Vollmacht%20M%C3%BCller.pdf",
      );
      expect(download.text).toBe(file);
    });

    it('carries X-Svc-Total of a search part', async () => {
      const [search] = await answered(BASE, [part('<s>', 'GET', '/01_01/kunden/_search?q=Aktuell')]);
      expect(search.status).toBe(200);
      expect(search.headers['x-svc-total']).toBe('1');
    });
  });

  describe('malformed parts get their own 400; their siblings still run', () => {
    const cases: [string, TestPart][] = [
      ['without Content-ID', { headers: { 'X-Svc-Method': 'GET', 'X-Svc-Path': '/laender' } }],
      ['without X-Svc-Method', { headers: { 'Content-ID': '<m>', 'X-Svc-Path': '/laender' } }],
      ['without X-Svc-Path', { headers: { 'Content-ID': '<p>', 'X-Svc-Method': 'GET' } }],
      ['with an unknown method', part('<x>', 'FETCH', '/laender')],
      ['in another tenant', part('<t>', 'GET', '/service/other/broker/v1/rest/laender')],
      ['in the employee service', part('<e>', 'GET', '/service/demo/employee/v1/rest/anreden')],
      ['climbing out with ..', part('<d>', 'GET', '/../../employee/v1/rest/anreden')],
      ['climbing out with encoded dots', part('<d2>', 'GET', '/%2e%2e/%2E%2E/employee/v1/rest/anreden')],
      ['hiding a slash in a segment', part('<s>', 'GET', '/V1000%2F..%2F..%2Fgesellschaften')],
      ['as an absolute URL', part('<u>', 'GET', 'http://evil.example/service/demo/broker/v1/rest/laender')],
      ['as a protocol-relative URL', part('<r>', 'GET', '//evil.example/laender')],
      ['naming the multi-call itself', part('<self>', 'POST', '/')],
      ['naming the multi-call by its full path', part('<self2>', 'POST', BROKER_BASE)],
      ['with a space in the path', part('<sp>', 'GET', '/V1000/gesell schaften')],
      ['with a fragment (Express would route it to the base)', part('<frag>', 'POST', '/#')],
      ['with a fragment after a path', part('<frag2>', 'GET', '/laender#top')],
      ['with a broken percent-encoding', part('<pe>', 'GET', '/V1000%zz/gesellschaften')],
      [
        'with a header value HTTP cannot carry',
        part('<h>', 'GET', '/laender', undefined, { 'X-Note': 'Preis in €' }),
      ],
    ];

    it.each(cases)('a part %s', async (_case, malformed) => {
      const parts = await answered(BROKER_BASE, [malformed, part('<fine>', 'GET', '/laender')]);
      expect(parts.map((answer) => answer.status)).toEqual([400, 200]);
      expect(parts[0].json()).toEqual({ Meldungen: [expect.any(String)] });
      expect(parts[1].headers['x-svc-request-id']).toBe('<fine>');
    });

    it('parts sharing a Content-ID, none of which runs', async () => {
      const parts = await answered(BROKER_BASE, [
        part('<same>', 'PATCH', '/vermittler/V1002', { Ort: 'Doppelt' }),
        part('<same>', 'GET', '/laender'),
        part('<other>', 'GET', '/laender'),
      ]);
      expect(parts.map((answer) => answer.status)).toEqual([400, 400, 200]);
      expect(parts[0].json()).toEqual({ Meldungen: [expect.stringContaining('<same>')] });
      expect(await brokerCity('V1002')).not.toBe('Doppelt');
    });
  });

  describe('batches refused as a whole (nothing runs)', () => {
    const patchThenList = (city: string, extra: TestPart[] = []) => [
      part('<w>', 'PATCH', '/vermittler/V1001', { Ort: city }),
      ...extra,
    ];

    it('more parts than MULTICALL_MAX_PARTS: 413', async () => {
      const many = Array.from({ length: 25 }, (_value, index) => part(`<p${index}>`, 'GET', '/laender'));
      const response = await batch(BROKER_BASE, patchThenList('Zuviel', many)).expect(413);
      expect(JSON.parse((response.body as Buffer).toString())).toEqual({
        Meldungen: [expect.stringContaining('25 parts')],
      });
      expect(await brokerCity('V1001')).not.toBe('Zuviel');
    });

    it('a part body over MULTICALL_MAX_PART_BYTES: 413', async () => {
      const big = part('<big>', 'PATCH', '/vermittler/V1002', { Impressum: 'x'.repeat(5000) });
      await batch(BROKER_BASE, patchThenList('Zugross', [big])).expect(413);
      expect(await brokerCity('V1001')).not.toBe('Zugross');
    });

    it('a request over MULTICALL_MAX_REQUEST_BYTES: 413', async () => {
      const parts = Array.from({ length: 20 }, (_value, index) =>
        part(`<p${index}>`, 'PATCH', '/vermittler/V1002', { Impressum: 'y'.repeat(3500) }),
      );
      await batch(BROKER_BASE, patchThenList('Zuviel2', parts)).expect(413);
      expect(await brokerCity('V1001')).not.toBe('Zuviel2');
    });

    it('a part header that is not UTF-8: 400', async () => {
      const body = Buffer.concat([
        Buffer.from('--test-boundary-4711\r\nContent-ID: <x'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('>\r\nX-Svc-Method: GET\r\nX-Svc-Path: /laender\r\n\r\n\r\n--test-boundary-4711--\r\n'),
      ]);
      const response = await asBuffer(
        request(service.app.getHttpServer() as App)
          .post(BROKER_BASE)
          .set(svcOtpHeaders(FIXTURE_API_CLIENTS.main))
          .set('Content-Type', multipartType())
          .send(body),
      ).expect(400);
      expect(JSON.parse((response.body as Buffer).toString())).toEqual({
        Meldungen: [expect.stringContaining('UTF-8')],
      });
    });

    it('a body that is not multipart: 415', async () => {
      const response = await batch(BROKER_BASE, '{"a": 1}', { contentType: 'application/json' }).expect(415);
      expect(JSON.parse((response.body as Buffer).toString())).toEqual({
        Meldungen: [expect.stringContaining('multipart/related')],
      });
    });

    it('multipart/related without a boundary, or cut off before its end: 400', async () => {
      await batch(BROKER_BASE, multipartBody(patchThenList('Ohne')), {
        contentType: 'multipart/related',
      }).expect(400);
      const cut = multipartBody(patchThenList('Abgeschnitten')).replace(/--\r\n$/, '');
      await batch(BROKER_BASE, cut.slice(0, cut.length - 40)).expect(400);
      await batch(BROKER_BASE, `--${'test-boundary-4711'}--\r\n`).expect(400);
      expect((await brokerCity('V1001')) ?? '').not.toMatch(/Ohne|Abgeschnitten/);
    });
  });

  describe('framing and encodings as standard MIME libraries write them', () => {
    const city = (part: TestPart, encoding: string, body: string): TestPart => ({
      headers: { ...part.headers, 'Content-Transfer-Encoding': encoding },
      body,
    });

    it('answers a base64 part and a quoted-printable part as plain ones', async () => {
      const json = JSON.stringify({ Ort: 'Lübeck' });
      const answers = await answered(BROKER_BASE, [
        city(part('<b64>', 'PATCH', '/vermittler/V1001', {}), 'base64', Buffer.from(json).toString('base64')),
        city(part('<qp>', 'PATCH', '/vermittler/V1002', {}), 'quoted-printable', '{"Ort":"L=C3=BCneburg"}'),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(await brokerCity('V1001')).toBe('Lübeck');
      expect(await brokerCity('V1002')).toBe('Lüneburg');
    });

    it('gives a part of an unknown Content-Transfer-Encoding its own 400 naming it; its sibling runs', async () => {
      const [unknown, sibling] = await answered(BROKER_BASE, [
        city(part('<gz>', 'PATCH', '/vermittler/V1001', {}), 'x-gzip', '{"Ort":"Gzip"}'),
        part('<ok>', 'GET', '/laender'),
      ]);
      expect(unknown.status).toBe(400);
      expect(unknown.json()).toEqual({ Meldungen: [expect.stringContaining('x-gzip')] });
      expect(sibling.status).toBe(200);
      expect(await brokerCity('V1001')).not.toBe('Gzip');
    });

    it('refuses a batch framed with LF alone, saying that multipart needs CRLF', async () => {
      const lf = multipartBody(patchOf('Nurlf')).replaceAll('\r\n', '\n');
      const response = await batch(BROKER_BASE, lf).expect(400);
      expect(JSON.parse((response.body as Buffer).toString())).toEqual({
        Meldungen: [expect.stringContaining('CRLF')],
      });
      expect(await brokerCity('V1001')).not.toBe('Nurlf');
    });

    it('refuses a bodiless part written without the CRLF before the next boundary, instead of running it alone', async () => {
      const swallowing =
        '--test-boundary-4711\r\nContent-ID: <get>\r\nX-Svc-Method: GET\r\nX-Svc-Path: /laender\r\n\r\n' +
        multipartBody(patchOf('Verschluckt'));
      const response = await batch(BROKER_BASE, swallowing).expect(400);
      expect(JSON.parse((response.body as Buffer).toString())).toEqual({
        Meldungen: [expect.stringMatching(/part <get> holds the boundary line --test-boundary-4711.*CRLF/)],
      });
      expect(await brokerCity('V1001')).not.toBe('Verschluckt');
    });

    it('serves the spec interface version 1.0 in the batch path and the part paths', async () => {
      const [relative, absolute] = await answered('/service/demo/broker/1.0/rest', [
        part('<rel>', 'GET', '/laender'),
        part('<abs>', 'GET', '/service/demo/broker/1.0/rest/V1000/gesellschaften'),
      ]);
      expect([relative.status, absolute.status]).toEqual([200, 200]);
      expect(absolute.json()).toEqual([]);
    });

    it('answers links in the version the batch was sent to', async () => {
      const [search] = await answered('/service/demo/employee/1.0/rest', [
        part('<s>', 'GET', '/01_01/kunden/_search?q=Aktuell&size=1'),
      ]);
      expect(search.json()).toEqual([
        expect.objectContaining({
          Uri: expect.stringMatching(/^\/service\/demo\/employee\/1\.0\/rest\/01_01\/kunden\//),
        }),
      ]);
    });
  });

  describe('authentication of the batch', () => {
    it('answers an unauthenticated batch as a single call would, not as multipart', async () => {
      const response = await batch(BROKER_BASE, [part('<a>', 'GET', '/laender')], { headers: {} }).expect(
        400,
      );
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse((response.body as Buffer).toString())).toEqual({ Meldungen: [expect.any(String)] });
    });

    it('answers an unknown API id with 404 and a blocked broker with 403', async () => {
      await batch(BROKER_BASE, [part('<a>', 'GET', '/laender')], {
        headers: svcOtpHeaders({ apiId: 'nobody', apiKey: 'whatever-key' }),
      }).expect(404);
      await batch(BROKER_BASE, [part('<a>', 'GET', '/laender')], {
        headers: svcDigestHeaders(FIXTURE_API_CLIENTS.blockedBroker),
      }).expect(403);
    });

    it('authorises every part as the outer caller (the digest form, whose nonce is single-use)', async () => {
      const response = await batch(
        BROKER_BASE,
        [part('<1>', 'GET', '/V1000/gesellschaften'), part('<2>', 'GET', '/V1003/gesellschaften')],
        { headers: svcDigestHeaders(FIXTURE_API_CLIENTS.other) },
      ).expect(200);
      const parts = answerParts(response.headers['content-type'], response.body as Buffer);
      expect(parts.map((answer) => answer.status)).toEqual([404, 404]);
    });
  });
});
