import request from 'supertest';
import type { App } from 'supertest/types.js';
import { FIXTURE_WRITE, withAdministration } from '@broker/fixtures';
import type { Administration } from '@broker/administration';
import { svcDigestHeaders, svcOtpHeaders } from './employee-fixture.js';
import { BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * API clients as the administration makes them (the administration service's use cases, on the service's database),
 * seen by area C at their next request: a new key by digest and OTP, a rotation's overlap and its end after 24 hours
 * (the clock moved), a block (403) and a deletion (404).
 */
describe('broker service: API clients made and changed by the administration', () => {
  let service: EmployeeTestService;
  const laender = `${BASE.replace('/employee/', '/broker/')}/laender`;
  const kunden = `${BASE}/01_01/kunden/_search?q=Anna`;

  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await service?.close();
  });

  const administer = <T>(work: (admin: Administration) => Promise<T>) =>
    withAdministration(service.database.url, work, service.encryptionKey);

  /** A request with exactly these authentication headers (no default client's). */
  const get = (path: string, headers: Record<string, string>) =>
    request(service.app.getHttpServer() as App)
      .get(path)
      .set(headers);

  it('takes a new client’s key at once, by digest and by OTP', async () => {
    const created = await administer((admin) =>
      admin.apiClients.create(FIXTURE_WRITE, 'demo', 'V1000', { apiId: 'made-by-admin' }),
    );
    const client = { apiId: created.api_id, apiKey: created.api_key };
    await get(laender, svcDigestHeaders(client)).expect(200);
    await get(laender, svcOtpHeaders(client)).expect(200);
    await get(kunden, svcDigestHeaders(client)).expect(200);
  });

  it('accepts the previous key beside the new one for 24 hours after a rotation, then refuses it', async () => {
    const created = await administer((admin) =>
      admin.apiClients.create(FIXTURE_WRITE, 'demo', 'V1001', { apiId: 'rotating' }),
    );
    const oldKey = { apiId: 'rotating', apiKey: created.api_key };
    const rotated = await administer((admin) =>
      admin.apiClients.rotateKey(FIXTURE_WRITE, 'demo', 'rotating'),
    );
    const newKey = { apiId: 'rotating', apiKey: rotated.api_key };
    for (const key of [oldKey, newKey]) {
      await get(laender, svcDigestHeaders(key)).expect(200);
      await get(laender, svcOtpHeaders(key)).expect(200);
    }
    // A day and a minute later (the service's clock; the headers are made at that time too).
    const later = Date.now() + DAY_MS + 60_000;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    const refused = await get(laender, svcDigestHeaders(oldKey, new Date(later))).expect(400);
    expect(refused.body).toEqual({ Meldungen: ['Header X-Svc-Digest does not match'] });
    await get(laender, svcOtpHeaders(oldKey, later)).expect(400);
    await get(laender, svcDigestHeaders(newKey, new Date(later))).expect(200);
    await get(laender, svcOtpHeaders(newKey, later)).expect(200);
    jest.restoreAllMocks();
  });

  it('refuses a blocked client with 403 and a deleted one with 404, at the next request', async () => {
    const created = await administer((admin) =>
      admin.apiClients.create(FIXTURE_WRITE, 'demo', 'V1000', { apiId: 'short-lived' }),
    );
    const client = { apiId: created.api_id, apiKey: created.api_key };
    await administer((admin) =>
      admin.apiClients.update(FIXTURE_WRITE, 'demo', 'short-lived', { blocked: true }),
    );
    expect((await get(laender, svcDigestHeaders(client)).expect(403)).body).toEqual({
      Meldungen: ['API client short-lived is blocked'],
    });
    await administer((admin) =>
      admin.apiClients.update(FIXTURE_WRITE, 'demo', 'short-lived', { blocked: false }),
    );
    await get(laender, svcOtpHeaders(client)).expect(200);
    await administer((admin) => admin.apiClients.delete(FIXTURE_WRITE, 'demo', 'short-lived'));
    expect((await get(laender, svcDigestHeaders(client)).expect(404)).body).toEqual({
      Meldungen: ['API id short-lived does not exist'],
    });
  });

  it('refuses an employee the administration disabled', async () => {
    await administer((admin) =>
      admin.employees.update(FIXTURE_WRITE, 'demo', 'V1000', '01_01', { disabled: true }),
    );
    const created = await administer((admin) =>
      admin.apiClients.create(FIXTURE_WRITE, 'demo', 'V1000', { apiId: 'employee-check' }),
    );
    await get(kunden, svcDigestHeaders({ apiId: created.api_id, apiKey: created.api_key })).expect(403);
    await administer((admin) =>
      admin.employees.update(FIXTURE_WRITE, 'demo', 'V1000', '01_01', { disabled: false }),
    );
  });
});
