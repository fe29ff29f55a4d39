import request from 'supertest';
import { type AdminTestApp, BASE, startAdminTestApp } from './admin-test-app.js';

interface AuditEvent {
  id: string;
  time: string;
  actor: { kind: string; subject: string; client: string | null };
  action: string;
  target: string;
  changes: Record<string, unknown>;
}

const PASSWORDS = ['Kiesel Abendrot Mondschein', 'Tasse Nebel Ufer Kompass'];

/**
 * Every write of the administration leaves an audit event (in the write's transaction) naming its actor; no key or
 * password is ever in an audit row, an answer after the one that made it, or a log line.
 */
describe('administration: the audit trail and secrets', () => {
  let t: AdminTestApp;
  let token: string;
  const keys: string[] = [];

  beforeAll(async () => {
    t = await startAdminTestApp();
    token = await t.adminToken('demo', { client_id: 'ops-console', sub: 'ops-user-7' });
    const call = (method: 'post' | 'patch' | 'delete', path: string, body?: object) =>
      t.call(token, method, `/tenants/demo${path}`, body).expect((response) => {
        if (response.status >= 300)
          throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
      });
    await call('post', '/brokers', { number: 'A1', name: 'Audit Eins' });
    await call('patch', '/brokers/A1', { name: 'Audit Eins neu', blocked: true });
    await call('post', '/brokers/A1/employees', { number: 'a_1', name: 'Anna Audit' });
    await call('patch', '/brokers/A1/employees/a_1', { disabled: true });
    keys.push(
      (await call('post', '/brokers/A1/api-clients', { api_id: 'audit-api' })).body.api_key as string,
    );
    keys.push((await call('post', '/api-clients/audit-api/key')).body.api_key as string);
    await call('patch', '/api-clients/audit-api', { blocked: true });
    await call('delete', '/api-clients/audit-api');
    await call('post', '/calc-users', { username: 'audit-rechner', password: PASSWORDS[0] });
    await call('patch', '/calc-users/audit-rechner', { password: PASSWORDS[1], disabled: true });
    await call('post', '/companies', { vu_number: '8001', name: 'Audit Versicherung' });
    await call('post', '/agreements', { broker: 'A1', vu_number: '8001', agency_number: 'AG-1' });
    await call('delete', '/agreements/A1/8001');
    await request(t.server())
      .post(`${BASE}/tenants/demo/master-data/companies`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'text/csv')
      .send('vu_number,name\n8002,Audit Zwei')
      .expect(200);
    await t
      .call(await t.operatorToken({ sub: 'operator-9', client_id: 'ops-cli' }), 'post', '/tenants', {
        id: 'audit',
        name: 'Audit',
      })
      .expect(201);
  });
  afterAll(() => t?.close());

  const events = async (query = '', tenant = 'demo', reader = token) =>
    (await t.call(reader, 'get', `/tenants/${tenant}/audit-events?limit=1000${query}`).expect(200)).body as {
      items: AuditEvent[];
      next_cursor: string | null;
    };

  it('records every write with its operation, target, changes and the token’s subject and client', async () => {
    const written = (await events('&actor=ops-user-7')).items.reverse();
    expect(written.map((event) => [event.action, event.target])).toEqual([
      ['createBroker', 'brokers/A1'],
      ['updateBroker', 'brokers/A1'],
      ['createEmployee', 'brokers/A1/employees/a_1'],
      ['updateEmployee', 'brokers/A1/employees/a_1'],
      ['createApiClient', 'api-clients/audit-api'],
      ['rotateApiClientKey', 'api-clients/audit-api'],
      ['updateApiClient', 'api-clients/audit-api'],
      ['deleteApiClient', 'api-clients/audit-api'],
      ['createCalcUser', 'calc-users/audit-rechner'],
      ['updateCalcUser', 'calc-users/audit-rechner'],
      ['createCompany', 'companies/8001'],
      ['createCompanyAgreement', 'agreements/A1/8001'],
      ['deleteCompanyAgreement', 'agreements/A1/8001'],
      ['importMasterData', 'master-data/companies'],
    ]);
    for (const event of written) {
      expect(event.actor).toEqual({ kind: 'tenant-admin', subject: 'ops-user-7', client: 'ops-console' });
      expect(event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(written[1].changes).toEqual({ name: 'Audit Eins neu', blocked: true });
    expect(written[9].changes).toEqual({ disabled: true, password_changed: true });
    const [created] = (await events('&action=createTenant', 'audit', await t.operatorToken())).items;
    expect(created).toMatchObject({
      actor: { kind: 'operator', subject: 'operator-9', client: 'ops-cli' },
      target: 'tenant',
      changes: { id: 'audit', name: 'Audit' },
    });
  });

  it('filters by actor, action, target (or below it) and time, and pages with a cursor', async () => {
    expect((await events('&action=updateBroker')).items).toHaveLength(1);
    expect((await events('&target=brokers/A1')).items).toHaveLength(2);
    expect((await events('&target=brokers/A1/')).items.map((event) => event.action)).toEqual([
      'updateEmployee',
      'createEmployee',
    ]);
    expect((await events('&actor=nobody')).items).toEqual([]);
    expect((await events('&to=2000-01-01T00:00:00Z')).items).toEqual([]);
    expect((await events('&to=2000-01-01T00:00:00%2B14:59')).items).toEqual([]);
    expect((await events('&to=9999-12-31T23:59:59.999999-14:59')).items).not.toEqual([]);
    const all = (await events('&from=2000-01-01T00:00:00%2B01:00')).items;
    const first = await t.call(token, 'get', '/tenants/demo/audit-events?limit=5').expect(200);
    expect(first.body.items).toHaveLength(5);
    const second = await t
      .call(token, 'get', `/tenants/demo/audit-events?limit=5&cursor=${first.body.next_cursor as string}`)
      .expect(200);
    expect([...first.body.items, ...second.body.items].map((event: AuditEvent) => event.id)).toEqual(
      all.slice(0, 10).map((event) => event.id),
    );
    for (const query of [
      'from=yesterday',
      'from=2026-02-30T00:00:00Z',
      'to=0000-01-01T00:00:00Z',
      'to=2026-01-01T24:00:00Z',
      'to=2026-01-01T00:00:00%2B15:00',
      'from=2026-01-01T00:00:00-23:59',
      'cursor=abc',
      'cursor=9999999999999999999',
      'limit=1001',
    ])
      await t.call(token, 'get', `/tenants/demo/audit-events?${query}`).expect(400);
  });

  it('shows the customers’ own events (a password set through a link) beside the administration’s', async () => {
    const { rows } = await t.db.query<{ tenant_id: string; id: string }>(
      `INSERT INTO broker.customer (tenant_id, broker_id, person_type, last_name)
       SELECT tenant_id, id, 'natuerlich', 'Kunde' FROM broker.broker WHERE broker_number = 'V1000'
       RETURNING tenant_id::text, id::text`,
    );
    // As the password page records it (apps/broker-service/src/password-page/password.repository.ts).
    await t.db.query(
      `INSERT INTO broker.audit_event
         (tenant_id, customer_id, action, actor_kind, actor, target, client_address, user_agent, details)
       VALUES ($1, $2, 'passwort_gesetzt', 'customer', 'kunde', $4, '203.0.113.9', 'Test', $3)`,
      [rows[0].tenant_id, rows[0].id, { linkId: '1', linksSpent: ['1'] }, `customers/${rows[0].id}`],
    );
    const [event] = (await events('&actor=kunde')).items;
    expect(event).toMatchObject({
      actor: { kind: 'customer', subject: 'kunde', client: null },
      action: 'passwort_gesetzt',
      target: `customers/${rows[0].id}`,
      changes: { linkId: '1', linksSpent: ['1'] },
    });
  });

  it('never holds a key or a password in an audit row, a later answer or a log line', async () => {
    const secrets = [...keys, ...PASSWORDS];
    expect(keys.every((key) => key.length === 43)).toBe(true);
    const rows = JSON.stringify((await t.db.query('SELECT * FROM broker.audit_event')).rows);
    const answers = JSON.stringify([
      await events(),
      (await t.call(token, 'get', '/tenants/demo/brokers/A1').expect(200)).body,
      (await t.call(token, 'get', '/tenants/demo/calc-users/audit-rechner').expect(200)).body,
    ]);
    const logs = t.logLines.join('\n');
    expect(logs).toContain('"url":"/admin/v1/tenants/demo/calc-users"');
    for (const secret of secrets) {
      expect(rows).not.toContain(secret);
      expect(answers).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    expect(logs).not.toMatch(/Bearer ey/);
  });
});
