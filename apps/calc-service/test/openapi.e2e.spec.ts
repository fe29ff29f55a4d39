import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { CIVIL_SERVICE_OCCUPATIONS } from '@broker/tariff-engine';
import { lintErrors, lintOpenApi } from '@broker/testing';
import { type CalcTestApp, startCalcTestApp } from './calc-test-app.js';

interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}

interface Document {
  openapi: string;
  servers: { url: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { enum?: string[]; properties?: Record<string, unknown> }>;
    securitySchemes: object;
  };
}

const ref = (name: string) => `#/components/schemas/${name}`;
const jsonSchema = (part: { content?: Record<string, { schema: { $ref?: string } }> } | undefined) =>
  part?.content?.['application/json']?.schema.$ref;

describe('GET /api/doc/v1/swagger.json', () => {
  let calc: CalcTestApp;
  let document: Document;

  beforeAll(async () => {
    calc = await startCalcTestApp();
    document = (await request(calc.server()).get('/api/doc/v1/swagger.json').expect(200)).body as Document;
  });
  afterAll(() => calc?.close());

  it('is a valid OpenAPI 3.0 document (checked by an OpenAPI parser, references resolved)', async () => {
    expect(document.openapi).toMatch(/^3\.0\.\d+$/);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(lintErrors(await lintOpenApi(document))).toEqual([]);
    expect(document.servers).toEqual([{ url: '/api', description: 'The calculation service' }]);
  });

  it('describes the bearer scheme, login and the calculation with request, response and error schemas', () => {
    expect(document.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      // The spec example's spelling, which the service takes too.
      authorisation: { type: 'apiKey', in: 'header', name: 'Authorisation', description: expect.any(String) },
    });
    const login = document.paths['/login'].post;
    expect(jsonSchema(login.requestBody)).toBe(ref('LoginRequest'));
    expect(jsonSchema(login.responses['200'])).toBe(ref('LoginResponse'));
    expect(jsonSchema(login.responses['401'])).toBe(ref('ApiErrorView'));
    expect(login.security).toEqual([]);

    const calculate = document.paths['/v1/calculate/private-liability'].post;
    expect(calculate.security).toEqual([{ authorisation: [] }, { bearer: [] }]);
    expect(jsonSchema(calculate.requestBody)).toBe(ref('PrivateLiabilityCalculationRequest'));
    expect(jsonSchema(calculate.responses['200'])).toBe(ref('PrivateLiabilityCalculationResponse'));
    for (const status of ['400', '401'])
      expect(jsonSchema(calculate.responses[status])).toBe(ref('ApiErrorView'));
    expect(Object.keys(document.components.schemas.ApiErrorView.properties!)).toEqual([
      'name',
      'message',
      'code',
      'status',
    ]);
  });

  it('lists the occupations in the component CivilServiceOccuption and refers to it from the request', () => {
    expect(document.components.schemas.CivilServiceOccuption.enum).toEqual([...CIVIL_SERVICE_OCCUPATIONS]);
    expect(document.components.schemas.InsuredAdultRequest.properties!.civil_service_occupation).toEqual({
      $ref: ref('CivilServiceOccuption'),
    });
  });

  it('holds only the schemas the described operations use', () => {
    const names = Object.keys(document.components.schemas);
    for (const foreign of ['KundeInput', 'StartImportForm']) expect(names).not.toContain(foreign);
    expect(names).toEqual(
      expect.arrayContaining([
        'PolicyholderRequest',
        'SubjectMatterRequest',
        'TariffOfferView',
        'ProductRefusalView',
      ]),
    );
  });
});
