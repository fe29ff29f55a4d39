import { refusedByRule } from '@broker/testing';
import { type AdminTestApp, startAdminTestApp } from './admin-test-app.js';

interface BrokerView {
  number: string;
  name: string;
  parent: string | null;
  blocked: boolean;
  sub_broker_count: number;
}

/** Tenants, brokers and their hierarchy, employees: every operation with its answers and refusals. */
describe('administration: tenants, brokers and employees', () => {
  let t: AdminTestApp;
  let token: string;

  beforeAll(async () => {
    t = await startAdminTestApp();
    token = await t.adminToken('demo');
  });
  afterAll(() => t?.close());

  const numbers = (body: unknown) => (body as { items: BrokerView[] }).items.map((broker) => broker.number);

  describe('tenants', () => {
    it('creates a tenant with its Location, and refuses a taken or malformed id', async () => {
      const operator = await t.operatorToken();
      const created = await t
        .call(operator, 'post', '/tenants', { id: 'sued-pool', name: ' Süd Pool ' })
        .expect(201);
      expect(created.headers.location).toBe('/admin/v1/tenants/sued-pool');
      expect(created.body).toMatchObject({ id: 'sued-pool', name: 'Süd Pool' });
      expect(created.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      await t.call(operator, 'get', '/tenants/sued-pool').expect(200);
      await t.call(operator, 'post', '/tenants', { id: 'sued-pool', name: 'Zweimal' }).expect(409);
      const invalid = await t.call(operator, 'post', '/tenants', { id: 'Sued Pool', name: '' }).expect(400);
      expect(invalid.body.message).toContain('id must be 1 to 32 lower-case letters');
      expect(invalid.body.message).toContain('name must not be empty');
      await t
        .call(operator, 'post', '/tenants', { id: 'x', name: 'X', created_at: '2020-01-01' })
        .expect(400);
    });
  });

  describe('brokers', () => {
    it('creates brokers at the top and below a parent, each once', async () => {
      const top = await t
        .call(token, 'post', '/tenants/demo/brokers', { number: 'B100', name: 'Oben' })
        .expect(201);
      expect(top.headers.location).toBe('/admin/v1/tenants/demo/brokers/B100');
      expect(top.body).toMatchObject({ number: 'B100', parent: null, blocked: false, sub_broker_count: 0 });
      const below = await t
        .call(token, 'post', '/tenants/demo/brokers', {
          number: 'B101',
          name: 'Unten',
          parent: 'B100',
          blocked: true,
        })
        .expect(201);
      expect(below.body).toMatchObject({ number: 'B101', parent: 'B100', blocked: true });
      await t.call(token, 'post', '/tenants/demo/brokers', { number: 'B100', name: 'Nochmal' }).expect(409);
    });

    it('refuses an unknown parent, a parent of another tenant, a malformed number and unknown fields', async () => {
      const unknown = await refusedByRule(
        t.call(token, 'post', '/tenants/demo/brokers', { number: 'B200', name: 'X', parent: 'GIBTSNICHT' }),
      ).expect(400);
      expect(unknown.body.message).toBe('parent GIBTSNICHT is not a broker of this tenant');
      await refusedByRule(
        t.call(token, 'post', '/tenants/demo/brokers', { number: 'B200', name: 'X', parent: 'N1' }),
      ).expect(400);
      await t.call(token, 'post', '/tenants/demo/brokers', { number: 'B 200/x', name: 'X' }).expect(400);
      await t
        .call(token, 'post', '/tenants/demo/brokers', { number: 'B200', name: 'X', id: '1' })
        .expect(400);
      await t
        .call(token, 'post', '/tenants/demo/brokers', { number: 'B200', name: 'X', tenant: 'nord' })
        .expect(400);
      await t.call(token, 'get', '/tenants/demo/brokers/B200').expect(404);
    });

    it('reads a broker with its superior, sub-broker count, employees and API clients', async () => {
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1001/employees', { number: '11_01', name: 'Nora Nord' })
        .expect(201);
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1001/api-clients', { api_id: 'nord-portal' })
        .expect(201);
      const broker = await t.call(token, 'get', '/tenants/demo/brokers/V1001').expect(200);
      expect(broker.body).toMatchObject({
        number: 'V1001',
        parent: 'V1000',
        parent_name: 'Muster Makler GmbH',
        sub_broker_count: 1,
        employee_count: 1,
        employees: [{ number: '11_01', name: 'Nora Nord', disabled: false }],
        api_client_count: 1,
        api_clients: [{ api_id: 'nord-portal', broker: 'V1001', blocked: false }],
      });
      expect(JSON.stringify(broker.body)).not.toMatch(/api_key|otp/);
      await t.call(token, 'get', '/tenants/demo/brokers/GIBTSNICHT').expect(404);
    });

    it('lists brokers paged, by superior, by text, sorted', async () => {
      const page = await t.call(token, 'get', '/tenants/demo/brokers?limit=2&offset=1').expect(200);
      expect(page.body).toMatchObject({ total: 8, offset: 1, limit: 2 });
      expect(numbers(page.body)).toEqual(['B101', 'V1000']);
      expect(
        numbers((await t.call(token, 'get', '/tenants/demo/brokers?parent=V1000').expect(200)).body),
      ).toEqual(['V1001', 'V1002']);
      expect(
        numbers((await t.call(token, 'get', '/tenants/demo/brokers?parent=-').expect(200)).body),
      ).toEqual(['B100', 'V1000', 'V1900', 'V2000']);
      expect(
        numbers((await t.call(token, 'get', '/tenants/demo/brokers?q=makler').expect(200)).body),
      ).toEqual(['V1000', 'V1001', 'V1900', 'V2000']);
      const byName = await t.call(token, 'get', '/tenants/demo/brokers?sort=-name&limit=1').expect(200);
      expect(numbers(byName.body)).toEqual(['B101']);
      expect(
        numbers((await t.call(token, 'get', '/tenants/demo/brokers?q=100%25').expect(200)).body),
      ).toEqual([]);
      await t.call(token, 'get', '/tenants/demo/brokers?limit=0').expect(400);
      await t.call(token, 'get', '/tenants/demo/brokers?sort=secret').expect(400);
      await t.call(token, 'get', '/tenants/demo/brokers?parent=a/b').expect(400);
    });

    it('renames, blocks and moves a broker, and moves it to the top', async () => {
      const renamed = await t
        .call(token, 'patch', '/tenants/demo/brokers/B101', { name: 'Unten neu', blocked: false })
        .expect(200);
      expect(renamed.body).toMatchObject({ name: 'Unten neu', blocked: false, parent: 'B100' });
      const moved = await t
        .call(token, 'patch', '/tenants/demo/brokers/B101', { parent: 'V1003' })
        .expect(200);
      expect(moved.body).toMatchObject({ parent: 'V1003', name: 'Unten neu' });
      const top = await t.call(token, 'patch', '/tenants/demo/brokers/B101', { parent: null }).expect(200);
      expect(top.body).toMatchObject({ parent: null });
      await t.call(token, 'patch', '/tenants/demo/brokers/B101', {}).expect(200);
    });

    it('refuses a move that would make a cycle, a parent of another tenant and unknown brokers', async () => {
      const cycle = await refusedByRule(
        t.call(token, 'patch', '/tenants/demo/brokers/V1000', { parent: 'V1003' }),
      ).expect(400);
      expect(cycle.body.message).toBe(
        'parent V1003 is V1000 itself or below it: the move would make a cycle',
      );
      await refusedByRule(t.call(token, 'patch', '/tenants/demo/brokers/V1000', { parent: 'V1000' })).expect(
        400,
      );
      await refusedByRule(t.call(token, 'patch', '/tenants/demo/brokers/V1000', { parent: 'N1' })).expect(
        400,
      );
      await t.call(token, 'patch', '/tenants/demo/brokers/GIBTSNICHT', { name: 'X' }).expect(404);
      await t.call(token, 'patch', '/tenants/demo/brokers/V1000', { name: '' }).expect(400);
      await t.call(token, 'patch', '/tenants/demo/brokers/V1000', { name: null }).expect(400);
      await t.call(token, 'patch', '/tenants/demo/brokers/V1000', { number: 'V9' }).expect(400);
      const broker = await t.call(token, 'get', '/tenants/demo/brokers/V1000').expect(200);
      expect(broker.body).toMatchObject({ number: 'V1000', parent: null, name: 'Muster Makler GmbH' });
    });
  });

  describe('employees', () => {
    it('creates, reads, lists and updates employees of a broker', async () => {
      const created = await t
        .call(token, 'post', '/tenants/demo/brokers/V1002/employees', {
          number: '12_01',
          name: 'Sabine Süd',
          email: 'sabine@sued.example',
        })
        .expect(201);
      expect(created.headers.location).toBe('/admin/v1/tenants/demo/brokers/V1002/employees/12_01');
      expect(created.body).toMatchObject({ broker: 'V1002', number: '12_01', disabled: false });
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1002/employees', { number: '12_02', name: 'Ohne Mail' })
        .expect(201);
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1002/employees', { number: '12_01', name: 'X' })
        .expect(409);
      const list = await t.call(token, 'get', '/tenants/demo/brokers/V1002/employees').expect(200);
      expect(list.body).toMatchObject({
        total: 2,
        items: [{ number: '12_01' }, { number: '12_02', email: null }],
      });
      const disabled = await t
        .call(token, 'patch', '/tenants/demo/brokers/V1002/employees/12_01', { disabled: true, email: null })
        .expect(200);
      expect(disabled.body).toMatchObject({ disabled: true, email: null, name: 'Sabine Süd' });
      expect(
        (await t.call(token, 'get', '/tenants/demo/brokers/V1002/employees/12_01').expect(200)).body,
      ).toEqual(disabled.body);
    });

    it('refuses bad numbers and e-mails, unknown brokers and unknown employees', async () => {
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1002/employees', { number: '12 03', name: 'X' })
        .expect(400);
      await t
        .call(token, 'post', '/tenants/demo/brokers/V1002/employees', {
          number: '12_03',
          name: 'X',
          email: 'kein',
        })
        .expect(400);
      await t
        .call(token, 'post', '/tenants/demo/brokers/GIBTSNICHT/employees', { number: '1', name: 'X' })
        .expect(404);
      await t
        .call(token, 'patch', '/tenants/demo/brokers/V1002/employees/99_99', { disabled: true })
        .expect(404);
      await t.call(token, 'get', '/tenants/demo/brokers/V1001/employees/12_01').expect(404);
      await t.call(token, 'get', '/tenants/demo/brokers/GIBTSNICHT/employees').expect(404);
    });
  });
});
