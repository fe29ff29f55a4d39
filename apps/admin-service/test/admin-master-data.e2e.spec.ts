import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { type AdminTestApp, BASE, startAdminTestApp } from './admin-test-app.js';

/** Master data in bulk: CSV files of brokers, employees, insurers and agreements. */
describe('administration: master data (importMasterData)', () => {
  let t: AdminTestApp;
  let token: string;

  beforeAll(async () => {
    t = await startAdminTestApp();
    token = await t.adminToken('nord');
  });
  afterAll(() => t?.close());

  const upload = (kind: string, csv: string | Buffer, query = '', contentType = 'text/csv') =>
    request(t.server())
      .post(`${BASE}/tenants/nord/master-data/${kind}${query}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', contentType)
      .send(csv);

  const brokers = async () =>
    (
      await t.db.query<{
        number: string;
        name: string;
        parent: string | null;
        blocked: boolean;
        city: string | null;
      }>(
        `SELECT b.broker_number AS number, b.name, p.broker_number AS parent, b.blocked, b.city
           FROM broker.broker b JOIN broker.tenant t ON t.id = b.tenant_id
           LEFT JOIN broker.broker p ON p.id = b.parent_id
          WHERE t.code = 'nord' ORDER BY b.broker_number`,
      )
    ).rows;

  const BROKERS = [
    'number,name,parent,blocked',
    'N3,Nord Drei,N2,false',
    'N2,Nord Zwei,N1,',
    'N1,Nord Eins,,false',
    'N4,"Nord, Vier",N1,ja',
  ].join('\n');

  it('creates brokers whose parents come later in the file, then finds the same file unchanged', async () => {
    const first = await upload('brokers', BROKERS).expect(200);
    expect(first.body).toEqual({
      kind: 'brokers',
      dry_run: false,
      created: 3,
      updated: 1,
      unchanged: 0,
      rows: [
        { line: 2, key: 'N3', outcome: 'created', changes: [] },
        { line: 3, key: 'N2', outcome: 'created', changes: [] },
        {
          line: 4,
          key: 'N1',
          outcome: 'updated',
          changes: [{ column: 'name', from: 'Nord 1', to: 'Nord Eins' }],
        },
        { line: 5, key: 'N4', outcome: 'created', changes: [] },
      ],
      rows_not_listed: 0,
      errors: [],
    });
    expect(await brokers()).toEqual([
      { number: 'N1', name: 'Nord Eins', parent: null, blocked: false, city: null },
      { number: 'N2', name: 'Nord Zwei', parent: 'N1', blocked: false, city: null },
      { number: 'N3', name: 'Nord Drei', parent: 'N2', blocked: false, city: null },
      { number: 'N4', name: 'Nord, Vier', parent: 'N1', blocked: true, city: null },
    ]);
    const again = await upload('brokers', BROKERS).expect(200);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 4, errors: [] });
  });

  it('updates what changed, keeps the columns the file leaves out, reads ; files with a BOM and CR LF', async () => {
    const csv = '\uFEFFnumber;name;city\r\nN2;Nord Zwei;Kiel\r\nN3;Nord Drei neu;\r\n';
    const answer = await upload('brokers', csv).expect(200);
    expect(answer.body).toMatchObject({ created: 0, updated: 2, unchanged: 0 });
    const stored = await brokers();
    expect(stored.find((broker) => broker.number === 'N2')).toMatchObject({ city: 'Kiel', parent: 'N1' });
    expect(stored.find((broker) => broker.number === 'N3')).toMatchObject({
      name: 'Nord Drei neu',
      parent: 'N2',
    });
  });

  it('counts a dry run and writes nothing', async () => {
    const before = await brokers();
    const dry = await upload(
      'brokers',
      'number,name,parent\nN5,Nord Fünf,N4\nN1,Nord Eins umbenannt,',
      '?dry_run=true',
    ).expect(200);
    expect(dry.body).toEqual({
      kind: 'brokers',
      dry_run: true,
      created: 1,
      updated: 1,
      unchanged: 0,
      rows: [
        { line: 2, key: 'N5', outcome: 'created', changes: [] },
        {
          line: 3,
          key: 'N1',
          outcome: 'updated',
          changes: [{ column: 'name', from: 'Nord Eins', to: 'Nord Eins umbenannt' }],
        },
      ],
      rows_not_listed: 0,
      errors: [],
    });
    expect(await brokers()).toEqual(before);
    await upload('brokers', 'number,name\nN1,X', '?dry_run=ja').expect(400);

    // Every row is counted; the first 1000 are listed.
    const many = ['number,name', ...Array.from({ length: 1005 }, (_, index) => `M${index},Makler ${index}`)];
    const big = await upload('brokers', many.join('\n'), '?dry_run=true').expect(200);
    expect(big.body).toMatchObject({ created: 1005, rows_not_listed: 5 });
    expect(big.body.rows).toHaveLength(1000);
    expect(big.body.rows[999]).toEqual({ line: 1001, key: 'M999', outcome: 'created', changes: [] });
  });

  it('refuses a file with bad lines whole, listing every bad line, and writes nothing', async () => {
    const before = await brokers();
    const events = await t.db.query('SELECT count(*)::int AS n FROM broker.audit_event');
    const csv = [
      'number,name,parent,blocked',
      'N6,Nord Sechs,N7,false',
      'N7,Nord Sieben,N6,false',
      'N8,,N1,false',
      'N9,Nord Neun,GIBTSNICHT,false',
      'N6,Nord Sechs doppelt,,false',
      'N10,Nord Zehn,N1,vielleicht',
      'N11,Nord Elf',
      'N1,Nord Eins,N3,false',
      'N 12,Nord Zwölf,,',
      'N13,Nord Dreizehn,N13,',
      'N14,Nord Vierzehn,,false',
      'N15,"Nord\u202eFünfzehn",,',
    ].join('\n');
    const refused = await upload('brokers', csv).expect(422);
    expect(refused.body).toMatchObject({ kind: 'brokers', dry_run: false });
    expect(refused.body.errors).toEqual([
      { line: 2, message: 'broker N6 would be below itself: N6 → N7 → N6' },
      { line: 3, message: 'broker N7 would be below itself: N7 → N6 → N7' },
      { line: 4, message: 'name is empty' },
      { line: 5, message: 'parent GIBTSNICHT is neither in the file nor a broker of this tenant' },
      { line: 6, message: 'N6 is already on line 2' },
      { line: 7, message: expect.stringContaining('blocked must be true or false') },
      { line: 8, message: 'has 2 cells; the header names 4 columns' },
      { line: 9, message: 'broker N1 would be below itself: N1 → N3 → N2 → N1' },
      { line: 10, message: expect.stringContaining('number is not a broker number') },
      { line: 11, message: 'broker N13 cannot be its own parent' },
      { line: 13, message: 'name must not contain control or text-direction characters' },
    ]);
    // The counts and rows are the good rows' alone: a bad line is nothing but bad.
    expect(refused.body).toMatchObject({ created: 1, updated: 0, unchanged: 0, rows_not_listed: 0 });
    expect(refused.body.rows).toEqual([{ line: 12, key: 'N14', outcome: 'created', changes: [] }]);
    expect(await brokers()).toEqual(before);
    expect((await t.db.query('SELECT count(*)::int AS n FROM broker.audit_event')).rows).toEqual(events.rows);
  });

  it('walks a long cycle and a deep chain once, lists the first 1000 bad lines and counts the rest', async () => {
    const count = 20_000;
    const chain = Array.from(
      { length: count },
      (_, index) => `C${index},Kette ${index},${index === 0 ? '' : `C${index - 1}`},`,
    );
    const ring = Array.from(
      { length: count },
      (_, index) => `R${index},Ring ${index},R${(index + 1) % count},`,
    );
    const refused = await upload(
      'brokers',
      ['number,name,parent,blocked', ...chain, ...ring].join('\n'),
    ).expect(422);
    expect(refused.body.errors).toHaveLength(1001);
    expect(refused.body.errors[0]).toEqual({
      line: 34,
      message: 'broker C32 would be on level 33; a file places brokers on at most 32 levels',
    });
    expect(refused.body.errors[1000]).toEqual({
      line: 1033,
      message: `${2 * count - 32 - 1000} more bad line(s) after this one are not listed`,
    });
    const ringOnly = await upload('brokers', ['number,name,parent,blocked', ...ring].join('\n')).expect(422);
    expect(ringOnly.body.errors[1]).toEqual({
      line: 3,
      message: `broker R1 would be below itself: R1 → R2 → R3 → R4 → R5 → … (${count - 5} more) → R1`,
    });
    expect(await brokers()).not.toContainEqual(expect.objectContaining({ number: 'C0' }));
  });

  it('lists a line that is no CSV record', async () => {
    const refused = await upload('brokers', 'number,name\nN20,"Nord "Zwanzig\nN21,Nord').expect(422);
    expect(refused.body.errors).toContainEqual({
      line: 2,
      message: expect.stringContaining('is not a CSV record'),
    });
    expect(await brokers()).not.toContainEqual(expect.objectContaining({ number: 'N21' }));
  });

  it.each([
    ['an empty file', '', 'The file is empty'],
    ['a header only', 'number,name\n', 'The file has a header row but no rows'],
    ['a missing column', 'number,parent\nN30,N1', 'The header row lacks the column(s) name'],
    [
      'an unknown column',
      'number,name,password\nN30,X,geheim',
      'The header row names unknown column(s) password',
    ],
    ['a column twice', 'number,name,name\nN30,X,Y', 'The header row names name more than once'],
  ])('refuses %s with 400', async (_case, csv, message) => {
    const refused = await upload('brokers', csv).expect(400);
    expect(refused.body.message).toContain(message);
  });

  it('refuses other media types, charsets and bytes that are not UTF-8, unknown kinds and oversized files', async () => {
    await upload('brokers', '{"number":"N30","name":"X"}', '', 'application/json').expect(415);
    await upload('brokers', 'number,name\nN30,X', '', 'text/csv; charset=iso-8859-1').expect(415);
    await upload('brokers', 'number,name\nN31,Nord', '?dry_run=true', 'text/csv; charset="US-ASCII"').expect(
      200,
    );
    await upload(
      'brokers',
      Buffer.from([0x6e, 0x75, 0x6d, 0x62, 0x65, 0x72, 0x2c, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xe4, 0x2c, 0x78]),
    ).expect(400);
    await upload('passwords', 'number,name\nN30,X').expect(404);
    await upload('brokers', gzipSync('number,name\nN30,X')).set('Content-Encoding', 'gzip').expect(415);
    await upload('brokers', `number,name\n${'N30,X\n'.repeat(200_000)}`).expect(400);
    expect(await brokers()).not.toContainEqual(expect.objectContaining({ number: 'N30' }));
  });

  it('takes employees, insurers and agreements by their keys', async () => {
    const employees = await upload(
      'employees',
      'broker,number,name,email,disabled\nN1,e1,Eva Eins,eva@nord.example,\nN2,e1,Emil Zwei,,true\n',
    ).expect(200);
    expect(employees.body).toMatchObject({ created: 2, unchanged: 0 });
    const changed = await upload(
      'employees',
      'broker,number,name\nN1,e1,Eva Eins-Neu\nN2,e1,Emil Zwei',
    ).expect(200);
    expect(changed.body).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const rows = await t.db.query(
      `SELECT b.broker_number AS broker, e.employee_code AS number, e.name, e.email, e.blocked
         FROM broker.employee e JOIN broker.broker b ON b.id = e.broker_id JOIN broker.tenant t ON t.id = e.tenant_id
        WHERE t.code = 'nord' ORDER BY 1, 2`,
    );
    expect(rows.rows).toEqual([
      { broker: 'N1', number: 'e1', name: 'Eva Eins-Neu', email: 'eva@nord.example', blocked: false },
      { broker: 'N2', number: 'e1', name: 'Emil Zwei', email: null, blocked: true },
    ]);
    const badEmployees = await upload('employees', 'broker,number,name\nV1000,e1,Fremd\nN1,e 2,X').expect(
      422,
    );
    expect(badEmployees.body.errors).toEqual([
      { line: 2, message: 'broker V1000 is not a broker of this tenant' },
      { line: 3, message: expect.stringContaining('number is not an employee number') },
    ]);
    expect(
      (await upload('companies', 'vu_number,name\n7001,Nord Versicherung\n7002,See AG').expect(200)).body,
    ).toMatchObject({ created: 2 });
    const agreements = await upload(
      'agreements',
      'broker,vu_number,agency_number\nN1,7001,A-1\nN2,7002,',
    ).expect(200);
    expect(agreements.body).toMatchObject({ created: 2 });
    const badAgreements = await upload('agreements', 'broker,vu_number\nN1,9999\nN1,7001\nN1,7001').expect(
      422,
    );
    expect(badAgreements.body.errors).toEqual([
      { line: 2, message: 'vu_number 9999 is not an insurer of this tenant' },
      { line: 4, message: 'N1/7001 is already on line 3' },
    ]);
    const list = await t.call(token, 'get', '/tenants/nord/agreements').expect(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({ broker: 'N1', vu_number: '7001', agency_number: 'A-1' }),
      expect.objectContaining({ broker: 'N2', vu_number: '7002', agency_number: null }),
    ]);
  });

  it('records one audit event per file that changed something, with what it changed', async () => {
    const events = await t
      .call(token, 'get', '/tenants/nord/audit-events?action=importMasterData&limit=1000')
      .expect(200);
    const targets = (events.body.items as { target: string }[]).map((event) => event.target);
    expect(targets).toEqual([
      'master-data/agreements',
      'master-data/companies',
      'master-data/employees',
      'master-data/employees',
      'master-data/brokers',
      'master-data/brokers',
    ]);
    expect((events.body as { items: { changes: object }[] }).items.at(-1)?.changes).toEqual({
      created: ['N3', 'N2', 'N4'],
      updated: { N1: { name: 'Nord Eins' } },
      unchanged: 0,
    });
  });

  it('takes two uploads of a kind one after the other: the second finds the first’s rows', async () => {
    const csv = `broker,number,name\n${Array.from({ length: 500 }, (_, index) => `N1,p${index},Paar ${index}`).join('\n')}`;
    const results = await Promise.all([
      upload('employees', csv).expect(200),
      upload('employees', csv).expect(200),
    ]);
    const counts = results.map(({ body }: { body: { created: number; unchanged: number } }) => [
      body.created,
      body.unchanged,
    ]);
    expect(counts.sort()).toEqual([
      [0, 500],
      [500, 0],
    ]);
  });

  it('leaves a column the file does not name as the API set it', async () => {
    await t.call(token, 'patch', '/tenants/nord/brokers/N1/employees/p1', { disabled: true }).expect(200);
    await t.call(token, 'patch', '/tenants/nord/brokers/N4', { blocked: false }).expect(200);
    await upload('employees', 'broker,number,name\nN1,p1,Paar Eins').expect(200);
    await upload('brokers', 'number,name\nN4,Nord Vier neu').expect(200);
    const p1 = await t.call(token, 'get', '/tenants/nord/brokers/N1/employees/p1').expect(200);
    expect(p1.body).toMatchObject({ name: 'Paar Eins', disabled: true });
    const n4 = await t.call(token, 'get', '/tenants/nord/brokers/N4').expect(200);
    expect(n4.body).toMatchObject({ name: 'Nord Vier neu', blocked: false, parent: 'N1' });
  });
});
