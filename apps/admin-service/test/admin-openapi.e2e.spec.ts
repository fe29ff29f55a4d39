import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { lintErrors, lintOpenApi } from '@broker/testing';
import { type AdminTestApp, BASE, startAdminTestApp } from './admin-test-app.js';

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
}

/** The operations the administration API is built around (their ids are fixed; clients and the console use them). */
const OPERATIONS = [
  'createTenant',
  'listTenants',
  'getTenant',
  'createBroker',
  'updateBroker',
  'listBrokers',
  'getBroker',
  'createEmployee',
  'updateEmployee',
  'listEmployees',
  'createApiClient',
  'rotateApiClientKey',
  'updateApiClient',
  'deleteApiClient',
  'listApiClients',
  'createCalcUser',
  'updateCalcUser',
  'createCompany',
  'listCompanies',
  'createCompanyAgreement',
  'deleteCompanyAgreement',
  'listCompanyAgreements',
  'importMasterData',
  'listAuditEvents',
  'listImportProcesses',
  'getImportProcess',
  'followImportProcess',
  'retryImportProcess',
  'cancelImportProcess',
  'listWebhookEndpoints',
  'getWebhookEndpoint',
  'enableWebhookEndpoint',
  'redeliverWebhookDeliveries',
  'listOutboxMessages',
  'resendOutboxMessage',
];

describe('GET /admin/v1/openapi.json', () => {
  let t: AdminTestApp;
  let document: Document;

  beforeAll(async () => {
    t = await startAdminTestApp();
    document = (await request(t.server()).get(`${BASE}/openapi.json`).expect(200)).body as Document;
  });
  afterAll(() => t?.close());

  it('is served without a token, is valid OpenAPI 3.0 and lints with 0 errors', async () => {
    expect(document.openapi).toMatch(/^3\.0\.\d+$/);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(lintErrors(await lintOpenApi(document))).toEqual([]);
  });

  it('describes every operation of the administration by its fixed id, with the area’s error answers', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    const ids = operations.map((operation) => operation.operationId);
    expect(ids).toEqual(expect.arrayContaining(OPERATIONS));
    for (const operation of operations)
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['400', '401', '403', '404', '500', '503']),
      );
  });
});
