import { findFreePort } from '@broker/local-services';
import { CLIENT_DOCUMENTS, documentUrl, fetchDocument } from '../src/client-types.js';

const ORIGIN = 'http://127.0.0.1';

describe('pnpm openapi:client: where it reads the served documents', () => {
  it("follows the suite's port variables, as pnpm start does", () => {
    expect(documentUrl(CLIENT_DOCUMENTS.calc, ORIGIN, { CALC_PORT: '4102' }).href).toBe(
      'http://127.0.0.1:4102/api/doc/v1/swagger.json',
    );
    expect(documentUrl(CLIENT_DOCUMENTS.employee, ORIGIN, { BROKER_PORT: '' }).href).toBe(
      'http://127.0.0.1:3003/service/demo/employee/v1/rest/openapi.json',
    );
    expect(() => documentUrl(CLIENT_DOCUMENTS.admin, ORIGIN, { ADMIN_PORT: 'admin' })).toThrow(
      'ADMIN_PORT must be a TCP port number (1-65535)',
    );
  });

  it('names the URL it could not reach, and why', async () => {
    const port = await findFreePort();
    const url = documentUrl(CLIENT_DOCUMENTS.import, ORIGIN, { IMPORT_PORT: String(port) });
    await expect(fetchDocument(url)).rejects.toThrow(
      `http://127.0.0.1:${port}/api/v1/openapi.json could not be reached (ECONNREFUSED); is the suite running ` +
        '(pnpm start), with the same port variables?',
    );
  });
});
