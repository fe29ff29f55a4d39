import { createServer } from 'node:http';
import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import {
  lintErrors,
  lintOpenApi,
  refusedByRule,
  undocumentedRequest,
  undocumentedResponse,
} from '@broker/testing';
import { BASE, BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
}

interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

describe('OpenAPI documents of the broker and employee services', () => {
  let service: EmployeeTestService;

  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

  async function documentAt(base: string): Promise<OpenApiDocument> {
    const response = await request(service.app.getHttpServer() as App)
      .get(`${base}/openapi.json`)
      .expect(200);
    const document = response.body as OpenApiDocument;
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(lintErrors(await lintOpenApi(document))).toEqual([]);
    return document;
  }

  it('describes the broker service: sub-brokers, lists and the multi-call, nothing of the employee service', async () => {
    const document = await documentAt(BROKER_BASE);
    expect(document.servers.map((server) => server.url)).toEqual([
      '/service/{tenant}/broker/1.0/rest',
      '/service/{tenant}/broker/v1/rest',
    ]);
    expect(Object.keys(document.paths).sort()).toEqual(
      ['/', '/laender', '/vermittler', '/vermittler/{vmt}', '/{vmt}/gesellschaften'].sort(),
    );
    expect(Object.keys(document.paths['/vermittler/{vmt}']).sort()).toEqual(['get', 'patch']);
    expect(document.paths['/vermittler/{vmt}'].patch.operationId).toBe('updateUntervermittler');
    expect(document.paths['/vermittler/{vmt}'].get?.operationId).toBe('getVermittler');
    expect(document.paths['/vermittler'].post?.operationId).toBe('createUntervermittler');
    expect(document.paths['/vermittler'].get?.operationId).toBe('listUntervermittler');
    expect(document.components.schemas.UntervermittlerAnlageInput?.required).toEqual([
      'Vermittlernummer',
      'Name',
    ]);
    expect(Object.keys(document.paths['/'])).toEqual(['post']);
    expect(Object.keys(document.paths['/'].post.requestBody?.content ?? {})).toEqual(['multipart/related']);
    const input = document.components.schemas.UntervermittlerdatensatzInput;
    expect(Object.keys(input?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'Uebervermittler',
        'Name',
        'PLZ',
        'Email',
        'Website',
        'Adresse',
        'Kommunikationsdaten',
      ]),
    );
    expect(document.components.schemas.UntervermittlerAdresse?.properties).toHaveProperty('PLZ');
  });

  it('describes the employee service with its multi-call and none of the broker paths', async () => {
    const document = await documentAt(BASE);
    expect(document.servers.map((server) => server.url)).toEqual([
      '/service/{tenant}/employee/1.0/rest',
      '/service/{tenant}/employee/v1/rest',
    ]);
    expect(Object.keys(document.paths).some((path) => path.includes('vermittler/'))).toBe(false);
    expect(Object.keys(document.paths['/'])).toEqual(['post']);
    const download = document.paths['/{ma}/kunden/{customerId}/archiveintraege/{entryId}/dokument'];
    expect(Object.keys(download.get.responses['200'].content ?? {})).toEqual(['application/pdf']);
    // The spec's spelling of the schema, double f included.
    expect(Object.keys(document.components.schemas)).toContain('SendeUnterschrifftenlinkAuftrag');
  });

  it("names the employee operations as the spec does, with the caller's parameters and every error answer", async () => {
    const document = await documentAt(BASE);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations.map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining([
        'addKunde',
        'getKunde',
        'setKunde',
        'getKundenAdressen',
        'addKundenAdresse',
        'setKundenAdresse',
        'deleteKundenAdresse',
        'getKundenKontaktdaten',
        'addKundenKontaktdatensatz',
        'setKundenKontaktdatensatz',
        'deleteKundenKontaktdatensatz',
        'getKundenVertraege',
        'getKundenDokumente',
        'getKundenArchiveintraege',
        'searchKunden',
        'sendUnterschrifftenlink',
        'getKundenDetail',
        'setKundenDetail',
        'getKundenDetails',
        'getVermittlerKundenDetail',
        'getVermittlerKundenDetails',
        'getAnreden',
        'getKundenKontaktarten',
        'getKundenNotizTypen',
        'getAdresstypen',
        'getLaender',
      ]),
    );
    const search = document.paths['/{ma}/kunden/_search'].get;
    expect(search.parameters?.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(
      expect.arrayContaining(['path:ma', 'query:q', 'query:from', 'query:size']),
    );
    expect(search.responses['200'].headers).toHaveProperty('X-Svc-Total');
    const query = Object.fromEntries(
      (search.parameters ?? []).map((parameter) => [parameter.name, parameter as { schema?: object }]),
    );
    expect(query.q?.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(query.size?.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 200, default: 50 });
    for (const operation of operations) {
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['400', '403', '404', '500', '503']),
      );
      expect(operation.responses['503'].headers).toHaveProperty('Retry-After');
    }
  });
});

describe('the check of every e2e response against the served documents (jest setupFilesAfterEnv)', () => {
  let service: EmployeeTestService;
  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(() => service?.close());

  const url = (path: string) => `http://127.0.0.1${path}`;

  it('passes a real answer and finds an unknown property, a wrong type or an undeclared status in it', async () => {
    const path = service.employeePath(`/kunden/${service.customers.v1000Customer}`);
    const real = await service.call('get', path).expect(200);
    const server = service.app.getHttpServer() as object;
    const check = (response: { status: number; body: unknown }) =>
      undocumentedResponse(server, 'GET', url(path), { headers: real.headers, ...response });

    await expect(check({ status: 200, body: real.body })).resolves.toBeUndefined();
    await expect(check({ status: 200, body: { ...real.body, Unbekannt: 1 } })).resolves.toMatch(
      /does not match its schema: .*must NOT have additional properties/,
    );
    await expect(check({ status: 200, body: { ...real.body, PerDu: 'ja' } })).resolves.toMatch(
      /PerDu must be boolean/,
    );
    await expect(check({ status: 418, body: real.body })).resolves.toMatch(
      /418, which its operation does not declare/,
    );
    await expect(
      undocumentedResponse(server, 'GET', url(`${BASE}/unbekannt`), { status: 200, headers: {}, body: {} }),
    ).resolves.toMatch(/no such operation/);
  });

  it('finds a header a client relies on that is undeclared, missing though required, or not of its schema', async () => {
    const server = service.app.getHttpServer() as object;
    const search = service.employeePath('/kunden/_search?q=a');
    const real = await service.call('get', search).expect(200);
    const check = (path: string, status: number, headers: Record<string, string>, body: unknown) =>
      undocumentedResponse(server, 'GET', url(path), {
        status,
        headers: { ...real.headers, ...headers },
        body,
      });

    await expect(check(search, 200, {}, real.body)).resolves.toBeUndefined();
    await expect(check(search, 200, { 'x-svc-total': 'viele' }, real.body)).resolves.toMatch(
      /header x-svc-total: viele does not match its schema/,
    );
    const withoutTotal = { ...real.headers } as Record<string, string>;
    delete withoutTotal['x-svc-total'];
    await expect(
      undocumentedResponse(server, 'GET', url(search), {
        status: 200,
        headers: withoutTotal,
        body: real.body,
      }),
    ).resolves.toMatch(/declares x-svc-total required, but it was not sent/);
    await expect(
      check(search, 200, { expires: 'Thu, 01 Jan 2037 00:00:00 GMT' }, real.body),
    ).resolves.toMatch(/sends expires, which the document does not declare/);
  });

  it('finds a body the service accepts but the document refuses, and one the document accepts but the service refuses', async () => {
    const server = service.app.getHttpServer() as object;
    const path = url(service.employeePath(`/kunden/${service.customers.v1000Customer}`));
    const json = 'application/json';
    const check = (body: unknown, status: number, refused = false) =>
      undocumentedRequest(
        server,
        'PUT',
        path,
        { headers: { 'content-type': json }, body, refusedByRule: refused },
        { status, body: {} },
      );

    await expect(check({ PerDu: true, Farbe: 'blau' }, 200)).resolves.toMatch(
      /accepted a body its document refuses: .*must NOT have additional properties/,
    );
    await expect(check({ PerDu: 'ja' }, 200)).resolves.toMatch(/PerDu must be boolean/);
    await expect(check({ PerDu: true }, 400)).resolves.toMatch(/refused a body its document accepts/);
    await expect(check({ PerDu: true }, 400, true)).resolves.toBeUndefined();
    await expect(check({ PerDu: 'ja' }, 400)).resolves.toBeUndefined();
    await expect(
      check({ PerDu: null, KundenbeziehungBeendetAm: null, Notizen: null }, 200),
    ).resolves.toBeUndefined();
    // A 400 for a path parameter or a missing header the document declares is not the body's fault.
    const badId = url(service.employeePath('/kunden/abc'));
    await expect(
      undocumentedRequest(
        server,
        'PUT',
        badId,
        { headers: { 'content-type': json }, body: { PerDu: true } },
        { status: 400, body: {} },
      ),
    ).resolves.toBeUndefined();
  });

  /**
   * A server whose document (at /api/v1/openapi.json) describes `operation` as `/list`; every other request gets
   * the status and JSON body `answer` gives for the request's body.
   */
  function documentedServer(
    method: 'get' | 'post',
    operation: object,
    answer: (body: string) => { status: number; body: unknown },
  ) {
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: '/api/v1' }],
      paths: { '/list': { [method]: operation } },
    };
    return createServer((incoming, outgoing) => {
      let body = '';
      incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
      incoming.on('end', () => {
        const answered =
          incoming.url === '/api/v1/openapi.json' ? { status: 200, body: document } : answer(body);
        outgoing.statusCode = answered.status;
        outgoing.setHeader('Content-Type', 'application/json');
        outgoing.end(JSON.stringify(answered.body));
      });
    });
  }

  const json = (schema: object) => ({ content: { 'application/json': { schema } } });

  it('fails the supertest request that sends a body its document refuses, or is refused one it accepts', async () => {
    // The document takes {name: string} and nothing else; the server takes anything but "x".
    const server = documentedServer(
      'post',
      {
        requestBody: json({
          type: 'object',
          properties: { name: { type: 'string' } },
          additionalProperties: false,
        }),
        responses: {
          200: { description: 'OK', ...json({ type: 'object' }) },
          400: { description: 'Refused', ...json({ type: 'object' }) },
        },
      },
      (body) => ({ status: body.includes('"x"') ? 400 : 200, body: {} }),
    );
    await expect(
      request(server).post('/api/v1/list').send({ name: 'a', extra: 1 }).expect(200),
    ).rejects.toThrow(
      /Undocumented exchange: POST \/api\/v1\/list \(200\): the service accepted a body its document refuses/,
    );
    await expect(request(server).post('/api/v1/list').send({ name: 'x' }).expect(400)).rejects.toThrow(
      /the service refused a body its document accepts/,
    );
    await refusedByRule(request(server).post('/api/v1/list').send({ name: 'x' })).expect(400);
    await request(server).post('/api/v1/list').send({ name: 'a' }).expect(200);
  });

  it('fails the supertest request of an undocumented response as a failed expectation would', async () => {
    // The document says GET /list answers an array of strings; the server answers numbers.
    const server = documentedServer(
      'get',
      { responses: { 200: { description: 'OK', ...json({ type: 'array', items: { type: 'string' } }) } } },
      () => ({ status: 200, body: [1, 2] }),
    );
    await expect(request(server).get('/api/v1/list').expect(200)).rejects.toThrow(
      /Undocumented exchange: GET \/api\/v1\/list \(200\): the body does not match its schema/,
    );
  });
});
