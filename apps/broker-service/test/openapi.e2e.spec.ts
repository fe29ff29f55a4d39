import { createServer } from 'node:http';
import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { lintErrors, lintOpenApi, undocumentedResponse } from '@broker/testing';
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

  it('fails the supertest request of an undocumented response as a failed expectation would', async () => {
    // A server whose document says GET /list answers an array of strings, and which answers numbers.
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: '/api/v1' }],
      paths: {
        '/list': {
          get: {
            responses: {
              200: {
                description: 'OK',
                content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } },
              },
            },
          },
        },
      },
    };
    const server = createServer((incoming, outgoing) => {
      const body = incoming.url === '/api/v1/openapi.json' ? document : [1, 2];
      outgoing.setHeader('Content-Type', 'application/json');
      outgoing.end(JSON.stringify(body));
    });
    await expect(request(server).get('/api/v1/list').expect(200)).rejects.toThrow(
      /Undocumented response: GET \/api\/v1\/list \(200\): the body does not match its schema/,
    );
  });
});
