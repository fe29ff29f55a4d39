import { Client } from 'pg';
import { FIXTURE_WRITE, importFixtureRows, withAdministration } from '@broker/fixtures';
import type { FixtureApiClient } from './employee-fixture.js';
import { BASE, BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

/** Few names and cities, so that most brokers hold customers with the same words as the caller. */
const LAST_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Obermüller', 'Meyer', 'Wagner', 'Becker'];
const FIRST_NAMES = ['Anna', 'Hans', 'Petra', 'Jürgen', 'Sabine', 'Klaus'];
const CITIES = ['Berlin', 'Hamburg', 'Köln', 'Fischbach', 'München'];
const POOL_BROKERS = 300;

/**
 * searchKunden in a tenant shaped like a broker pool: hundreds of brokers whose customers share names and cities,
 * some with sub-brokers. A broker sees exactly its own customers and those below it, counted exactly, however many
 * other brokers hold the same words; and a move in the hierarchy shows at once.
 */
describe('employee service: searchKunden in a broker pool', () => {
  let service: EmployeeTestService;
  let db: Client;
  let tenantId: string;

  /** The ids of the customers `caller` finds for `q`, and X-Svc-Total. */
  async function search(caller: FixtureApiClient, employee: string, q: string) {
    const response = await service
      .call('get', `${BASE}/${employee}/kunden/_search?q=${encodeURIComponent(q)}&size=200`, {
        client: caller,
      })
      .expect(200);
    const ids = (response.body as { Id: string }[]).map((hit) => hit.Id);
    return { ids: [...ids].sort(), total: Number(response.headers['x-svc-total']) };
  }

  /**
   * The customers of `brokerId` and the brokers below it whose name, address or e-mail holds `pattern` (a regular
   * expression over the lower-case inventory values), read from the inventory, not from the search table.
   */
  async function expected(brokerId: string, pattern: string): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      `WITH RECURSIVE visible(id) AS (
         SELECT id FROM broker.broker WHERE id = $1
         UNION ALL SELECT b.id FROM broker.broker b JOIN visible v ON b.parent_id = v.id)
       SELECT c.id::text FROM broker.customer c
        WHERE c.broker_id IN (SELECT id FROM visible)
          AND (lower(concat_ws(' ', c.first_name, c.last_name)) ~ $2
               OR EXISTS (SELECT FROM broker.address a
                           WHERE a.customer_id = c.id AND lower(concat_ws(' ', a.street, a.postal_code, a.city)) ~ $2)
               OR EXISTS (SELECT FROM broker.contact k WHERE k.customer_id = c.id AND lower(k.value) ~ $2))
        ORDER BY 1`,
      [brokerId, pattern],
    );
    return rows.map((row) => row.id).sort();
  }

  /**
   * Brokers P1..P300 (every tenth with a sub-broker PnS) through the administration's master-data import, each with
   * a few customers, written set-based.
   */
  async function insertPool(): Promise<void> {
    const numbers = Array.from({ length: POOL_BROKERS }, (_, index) => index + 1);
    await withAdministration(service.database.url, (admin) =>
      importFixtureRows(admin, 'demo', 'brokers', [
        ...numbers.map((n) => ({ number: `P${n}`, name: `Pool ${n}` })),
        ...numbers
          .filter((n) => n % 10 === 0)
          .map((n) => ({ number: `P${n}S`, name: `Pool ${n} unten`, parent: `P${n}` })),
      ]),
    );
    const pick = (list: string[], seed: string) =>
      `(ARRAY['${list.join("','")}'])[1 + (${seed}) % ${list.length}]`;
    await db.query(
      `INSERT INTO broker.customer (tenant_id, broker_id, person_type, first_name, last_name)
       SELECT $1, b.id, 'natuerlich', ${pick(FIRST_NAMES, 'b.id + n')}, ${pick(LAST_NAMES, 'b.id * 7 + n')}
         FROM broker.broker b, generate_series(1, 3 + b.id % 9) n WHERE b.broker_number LIKE 'P%'`,
      [tenantId],
    );
    await db.query(
      `INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, street, postal_code, city)
       SELECT c.tenant_id, c.id, 0, 'hauptwohnsitz', 'Hauptstraße ' || c.id % 50, '10115', ${pick(CITIES, 'c.id')}
         FROM broker.customer c JOIN broker.broker b ON b.id = c.broker_id WHERE b.broker_number LIKE 'P%'`,
    );
    await db.query(
      `INSERT INTO broker.contact (tenant_id, customer_id, context, contact_type, value)
       SELECT c.tenant_id, c.id, 'privat', 'email', lower(c.first_name) || '.' || c.id || '@pool.example'
         FROM broker.customer c JOIN broker.broker b ON b.id = c.broker_id WHERE b.broker_number LIKE 'P%'`,
    );
  }

  /**
   * Runs `statements` (numbers inlined, no parameters) on a connection of its own while `holder` keeps its
   * transaction open, and tells whether they had to wait for it (seen waiting on a lock) before `holder` commits.
   */
  async function whileHeld(holder: Client, statements: string) {
    const other = new Client({ connectionString: service.database.url });
    await other.connect();
    try {
      const pid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      let settled = false;
      const running = other.query(statements).finally(() => (settled = true));
      let waited = false;
      while (!settled && !waited) {
        const { rows } = await db.query<{ waiting: boolean }>(
          "SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = $1",
          [pid],
        );
        waited = rows[0]?.waiting === true;
      }
      await holder.query('COMMIT');
      await running;
      return waited;
    } finally {
      await other.end();
    }
  }

  /** A second connection with an open transaction. */
  async function openTransaction(): Promise<Client> {
    const holder = new Client({ connectionString: service.database.url });
    await holder.connect();
    await holder.query('BEGIN');
    return holder;
  }

  const brokerId = async (number: string) =>
    (await db.query<{ id: string }>('SELECT id::text FROM broker.broker WHERE broker_number = $1', [number]))
      .rows[0].id;

  beforeAll(async () => {
    service = await startEmployeeTestService();
    db = service.db;
    tenantId = (await db.query<{ id: string }>("SELECT id::text FROM broker.tenant WHERE code = 'demo'"))
      .rows[0].id;
    await insertPool();
  });

  afterAll(async () => {
    await service?.close();
  });

  it("gives a small broker exactly its own customers and its sub-broker's, whatever the others hold", async () => {
    // A broker whose id is a prefix of ten other brokers' ids (P10 and the brokers numbered like it ten times).
    const { rows } = await db.query<{ id: string; number: string }>(
      `SELECT b.id::text, b.broker_number AS number FROM broker.broker b
        WHERE b.broker_number ~ '^P[0-9]*0$' AND b.id >= 10
          AND (SELECT count(*) FROM broker.broker o WHERE o.id::text LIKE b.id::text || '_') = 10
        ORDER BY b.id LIMIT 1`,
    );
    const small = rows[0];
    const caller = await service.addApiClient(small.id, 'S1');
    for (const [q, pattern] of [
      ['Müller', 'müller'],
      ['Berlin', 'berlin'],
      ['Fisch', 'fisch'],
      ['mueller', 'müller'],
      ['Hans Müller', '^hans (ober)?müller$'],
    ] as const) {
      const visible = await expected(small.id, pattern);
      const answer = await search(caller, 'S1', q);
      expect({ q, ...answer }).toEqual({ q, ids: visible, total: visible.length });
    }
    const everyone = await search(caller, 'S1', '10115');
    const own = await expected(small.id, '10115');
    expect(everyone).toEqual({ ids: own, total: own.length });
    expect(own.length).toBeGreaterThan(0);
    const { rows: others } = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM broker.customer c JOIN broker.broker b ON b.id = c.broker_id
        WHERE c.id = ANY ($1::bigint[]) AND b.id <> $2 AND b.parent_id IS DISTINCT FROM $2`,
      [own, small.id],
    );
    expect(others[0].count).toBe(0);
  });

  it('follows a sub-broker moved to another broker at once', async () => {
    const [from, to, moved] = [await brokerId('P20'), await brokerId('P30'), await brokerId('P20S')];
    const [fromClient, toClient] = [
      await service.addApiClient(from, 'M1'),
      await service.addApiClient(to, 'M2'),
    ];
    const movedCustomers = await expected(moved, '10115');
    const among = (ids: string[]) => ids.filter((id) => movedCustomers.includes(id));
    const before = await search(toClient, 'M2', '10115');
    expect(among(before.ids)).toEqual([]);
    expect(movedCustomers.length).toBeGreaterThan(0);

    // The move through the broker service, as a broker's back office makes it (P20 is below nobody: V1000 can't).
    await db.query('UPDATE broker.broker SET parent_id = $1 WHERE broker_number IN ($2, $3)', [
      await brokerId('V1000'),
      'P20',
      'P30',
    ]);
    await service
      .call('patch', `${BROKER_BASE}/vermittler/P20S`, { body: { Uebervermittler: 'P30' } })
      .expect(200);

    const after = await search(toClient, 'M2', '10115');
    expect(among(after.ids)).toEqual(movedCustomers);
    expect(after.total).toBe(before.total + movedCustomers.length);
    const left = await search(fromClient, 'M1', '10115');
    expect(among(left.ids)).toEqual([]);
    expect(left).toEqual({ ids: await expected(from, '10115'), total: left.ids.length });
  });

  it('writes a customer added while its broker moves with the chain of brokers after the move', async () => {
    const [broker, from, to] = [await brokerId('P40S'), await brokerId('P40'), await brokerId('P50')];
    const holder = await openTransaction();
    try {
      await holder.query('UPDATE broker.broker SET parent_id = $1 WHERE id = $2', [to, broker]);
      const waited = await whileHeld(
        holder,
        `INSERT INTO broker.customer (tenant_id, broker_id, person_type, last_name)
         VALUES (${Number(tenantId)}, ${Number(broker)}, 'natuerlich', 'Umzugsrennen')`,
      );
      expect(waited).toBe(true);
    } finally {
      await holder.end();
    }
    const { rows } = await db.query<{ brokers: string[] }>(
      `SELECT s.brokers::text[] AS brokers FROM broker.customer_search s JOIN broker.customer c ON c.id = s.customer_id
        WHERE c.last_name = 'Umzugsrennen'`,
    );
    expect(rows).toEqual([{ brokers: [broker, to] }]);
    const [fromClient, toClient] = [
      await service.addApiClient(from, 'R1'),
      await service.addApiClient(to, 'R2'),
    ];
    expect((await search(fromClient, 'R1', 'Umzugsrennen')).total).toBe(0);
    expect((await search(toClient, 'R2', 'Umzugsrennen')).total).toBe(1);
  });

  describe('a refresh in progress (an import writing its customers’ documents)', () => {
    /** Holds a refresh of one customer of P70 open, as an import's refresh holds it until its stage commits. */
    async function refreshing(): Promise<Client> {
      const holder = await openTransaction();
      await holder.query(
        `SELECT broker.customer_search_refresh(ARRAY(SELECT id FROM broker.customer WHERE broker_id = $1 LIMIT 1))`,
        [await brokerId('P70')],
      );
      return holder;
    }

    it('does not hold up an update of a broker that moves nobody', async () => {
      const holder = await refreshing();
      try {
        const waited = await whileHeld(
          holder,
          `UPDATE broker.broker SET city = 'Bremen' WHERE id = ${await brokerId('P80')}`,
        );
        expect(waited).toBe(false);
      } finally {
        await holder.end();
      }
    });

    it('holds up a move in its tenant until it commits, and no move in another tenant', async () => {
      await withAdministration(service.database.url, async (admin) => {
        await admin.tenants.create(FIXTURE_WRITE, { id: 'zweiter-pool', name: 'Zweiter Pool' });
        await importFixtureRows(admin, 'zweiter-pool', 'brokers', [
          { number: 'Z1', name: 'Zweit Z1' },
          { number: 'Z2', name: 'Zweit Z2' },
        ]);
      });
      const { rows } = await db.query<{ id: string }>(
        `SELECT b.id::text FROM broker.broker b JOIN broker.tenant t ON t.id = b.tenant_id
          WHERE t.code = 'zweiter-pool' ORDER BY b.broker_number`,
      );
      const [other, otherParent] = rows.map((row) => Number(row.id));
      let holder = await refreshing();
      try {
        expect(
          await whileHeld(holder, `UPDATE broker.broker SET parent_id = ${otherParent} WHERE id = ${other}`),
        ).toBe(false);
      } finally {
        await holder.end();
      }
      holder = await refreshing();
      try {
        const [moved, to] = [await brokerId('P90S'), await brokerId('P100')];
        expect(
          await whileHeld(holder, `UPDATE broker.broker SET parent_id = ${to} WHERE id = ${moved}`),
        ).toBe(true);
      } finally {
        await holder.end();
      }
    });
  });

  it("refreshes a customer's document from what a concurrent change committed", async () => {
    // Written as an import writes it: its document waits for the import's refresh.
    const { rows } = await db.query<{ id: string }>(
      `WITH deferred AS (SELECT set_config('broker.search_refresh', 'deferred', true))
       INSERT INTO broker.customer (tenant_id, broker_id, person_type, last_name)
       SELECT $1, $2, 'natuerlich', 'Gleichzeitig' FROM deferred RETURNING id::text`,
      [tenantId, await brokerId('P60')],
    );
    const id = Number(rows[0].id);
    const holder = await openTransaction();
    try {
      await holder.query(
        `INSERT INTO broker.contact (tenant_id, customer_id, context, contact_type, value)
         VALUES ($1, $2, 'privat', 'email', 'live@gleichzeitig.example')`,
        [tenantId, id],
      );
      // The import's way: the address written with the documents deferred, then one refresh.
      const waited = await whileHeld(
        holder,
        `BEGIN;
         SELECT set_config('broker.search_refresh', 'deferred', true);
         INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, city)
         VALUES (${Number(tenantId)}, ${id}, 0, 'hauptwohnsitz', 'Importstadt');
         SELECT broker.customer_search_refresh(ARRAY[${id}]::bigint[]);
         COMMIT`,
      );
      expect(waited).toBe(true);
    } finally {
      await holder.end();
    }
    const stored = await db.query<{ stale: boolean }>(
      `SELECT s.words IS DISTINCT FROM v.words AS stale FROM broker.customer_search s
         JOIN broker.customer_search_source v USING (customer_id) WHERE customer_id = $1`,
      [id],
    );
    expect(stored.rows).toEqual([{ stale: false }]);
  });

  it('leaves words too long for the index out of the document, and writes the customer', async () => {
    const long = `Lang${'e'.repeat(1_500)}name`;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO broker.customer (tenant_id, broker_id, person_type, first_name, last_name)
       VALUES ($1, $2, 'natuerlich', 'Kurzname', $3) RETURNING id::text`,
      [tenantId, await brokerId('P70'), long],
    );
    const caller = await service.addApiClient(await brokerId('P70'), 'L1');
    expect((await search(caller, 'L1', 'Kurzname')).ids).toEqual([rows[0].id]);
    expect((await search(caller, 'L1', 'Lange')).ids).toEqual([]);
  });

  it('matches a term found inside more than 500 words at word beginnings only', async () => {
    await db.query(
      `INSERT INTO broker.customer_search_vocabulary (word)
       SELECT translate(n::text, '0123456789', 'abcdefghij') || 'zwischenwort' FROM generate_series(1, 80000) n`,
    );
    const caller = await service.addApiClient(await brokerId('P80'), 'W1');
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO broker.customer (tenant_id, broker_id, person_type, first_name, last_name)
       VALUES ($1, $2, 'natuerlich', 'Zwischenworter', 'Bzwischenwort') RETURNING id::text`,
      [tenantId, await brokerId('P80')],
    );
    expect(await search(caller, 'W1', 'Zwischenwort')).toEqual({ ids: [rows[0].id], total: 1 });
    expect(await search(caller, 'W1', 'bzwischenwort')).toEqual({ ids: [rows[0].id], total: 1 });
  });
});
