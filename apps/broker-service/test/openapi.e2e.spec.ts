import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { BASE, BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

interface OpenApiOperation {
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
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
    return document;
  }

  it('describes the broker service: sub-broker update, lists and the multi-call, nothing of the employee service', async () => {
    const document = await documentAt(BROKER_BASE);
    const base = '/service/{tenant}/broker/v1/rest';
    expect(Object.keys(document.paths).sort()).toEqual(
      [base, `${base}/laender`, `${base}/vermittler/{vmt}`, `${base}/{vmt}/gesellschaften`].sort(),
    );
    expect(Object.keys(document.paths[`${base}/vermittler/{vmt}`])).toEqual(['patch']);
    expect(Object.keys(document.paths[base])).toEqual(['post']);
    expect(Object.keys(document.paths[base].post.requestBody?.content ?? {})).toEqual(['multipart/related']);
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
    expect(
      Object.keys(document.paths).every((path) => path.startsWith('/service/{tenant}/employee/v1/rest')),
    ).toBe(true);
    expect(Object.keys(document.paths['/service/{tenant}/employee/v1/rest'])).toEqual(['post']);
    const download =
      document.paths[
        '/service/{tenant}/employee/v1/rest/{ma}/kunden/{customerId}/archiveintraege/{entryId}/dokument'
      ];
    expect(Object.keys(download.get.responses['200'].content ?? {})).toEqual(['application/pdf']);
  });
});
