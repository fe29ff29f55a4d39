import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { allMigrations } from '@broker/db';
import { createEmptyDatabase, type TestDatabase } from '@broker/testing';
import { runScript } from './run-cli.js';

const DB_CLI = 'tools/dev/dist/db-cli.js';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every row of the seeded schemas, including ids and timestamps, in a stable order. */
async function dumpData(url: string): Promise<Record<string, unknown[]>> {
  const tables = await query<{ name: string }>(
    url,
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('broker', 'calc', 'import') ORDER BY 1`,
  );
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables) dump[name] = await query(url, `SELECT * FROM ${name} ORDER BY 1, 2`);
  return dump;
}

async function schemaTables(url: string): Promise<string[]> {
  const rows = await query<{ name: string }>(
    url,
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('broker', 'calc', 'import') ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

describe('db-cli (pnpm db:migrate / db:revert / db:seed)', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    env = { DATABASE_URL: database.url, API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  });
  afterAll(() => database?.drop());

  /** Reverts the named migration and every one after it; answers how many that were. */
  async function revertThrough(name: string): Promise<number> {
    const steps = allMigrations.length - allMigrations.findIndex((migration) => migration.name === name);
    const down = await runScript(DB_CLI, ['revert', String(steps)], env);
    expect(down.stdout).toContain(`Reverted ${steps} migration(s)`);
    return steps;
  }

  it('applies every migration, and a second run applies none', async () => {
    const first = await runScript(DB_CLI, ['migrate'], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`${allMigrations.length} migrations applied in total`);
    expect(await schemaTables(database.url)).toEqual(
      expect.arrayContaining(['broker.customer', 'broker.contract', 'calc.user_account']),
    );
    const second = await runScript(DB_CLI, ['migrate'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('No pending migrations');
  });

  it('reverts every migration with its down and migrates up again', async () => {
    const before = await schemaTables(database.url);
    const down = await runScript(DB_CLI, ['revert', 'all'], env);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain(`Reverted ${allMigrations.length} migration(s)`);
    expect(await schemaTables(database.url)).toEqual([]);
    const schemas = await query(
      database.url,
      "SELECT 1 FROM pg_namespace WHERE nspname IN ('broker','calc','import')",
    );
    expect(schemas).toEqual([]);
    const up = await runScript(DB_CLI, ['migrate'], env);
    expect(up.code).toBe(0);
    expect(await schemaTables(database.url)).toEqual(before);
  });

  it('seeds the demo data, and seeding again changes nothing', async () => {
    const first = await runScript(DB_CLI, ['seed'], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const afterFirst = await dumpData(database.url);
    const brokers = afterFirst['broker.broker'] as { broker_number: string }[];
    expect(brokers.map((broker) => broker.broker_number).sort()).toEqual([
      'V1000',
      'V1001',
      'V1002',
      'V1003',
      'V1900',
      'V2000',
    ]);
    expect(afterFirst['calc.user_account']).toHaveLength(1);
    const second = await runScript(DB_CLI, ['seed'], env);
    expect(second.code).toBe(0);
    expect(await dumpData(database.url)).toEqual(afterFirst);
  });

  it('stores API keys encrypted and the calculation password as an argon2id hash', async () => {
    const dump = JSON.stringify(await dumpData(database.url));
    expect(dump).not.toContain('demo-api-key');
    expect(dump).not.toContain('Tarif Kiesel Abendrot');
    const [user] = await query<{ password_hash: string }>(
      database.url,
      'SELECT password_hash FROM calc.user_account',
    );
    expect(user?.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('takes the search index of seeded customers down to the B-tree and up to the broker keys again', async () => {
    const findMueller = `SELECT count(*)::int AS count FROM broker.customer_search s
      WHERE broker.search_keys(s.brokers, s.words)
            @@ broker.search_match((SELECT id FROM broker.broker WHERE broker_number = 'V1000'), 'mueller', '{}')`;
    const customers = await query<{ count: number }>(
      database.url,
      'SELECT count(*)::int AS count FROM broker.customer',
    );
    expect(customers[0]?.count).toBeGreaterThan(0);
    // Back to before the broker keys (…013).
    await revertThrough('CustomerSearchByBroker1763700000013');
    const words = await query<{ customers: number }>(
      database.url,
      'SELECT count(DISTINCT customer_id)::int AS customers FROM broker.customer_search_word',
    );
    expect(words).toEqual(customers.map(({ count }) => ({ customers: count })));
    const up = await runScript(DB_CLI, ['migrate'], env);
    expect(up.code).toBe(0);
    const documents = await query<{ count: number }>(
      database.url,
      'SELECT count(*)::int AS count FROM broker.customer_search',
    );
    expect(documents).toEqual(customers);
    expect(await query(database.url, findMueller)).toEqual([{ count: 1 }]);
  });

  it('joins employees’ names, keeps the customers’ audit rows and dates the API keys when the administration comes', async () => {
    await revertThrough('Administration1763700000020');
    await query(
      database.url,
      `WITH broker AS (SELECT tenant_id, id FROM broker.broker WHERE broker_number = 'V1000'),
       employees AS (
         INSERT INTO broker.employee (tenant_id, broker_id, employee_code, first_name, last_name)
         SELECT tenant_id, id, code, first_name, last_name FROM broker,
           (VALUES ('alt-1', 'Eva', 'Muster'), ('alt-2', NULL, 'Solo'), ('alt-3', NULL, ' ')) AS e(code, first_name, last_name)
         RETURNING id)
       INSERT INTO broker.audit_event (tenant_id, customer_id, action, actor, details)
       SELECT c.tenant_id, c.id, 'mandateSigned', 'kunde', '{"document": 1}'
         FROM broker.customer c ORDER BY c.id LIMIT 1`,
    );
    const keys = await query<{ count: number }>(
      database.url,
      'SELECT count(*)::int AS count FROM broker.api_client',
    );
    expect((await runScript(DB_CLI, ['migrate'], env)).code).toBe(0);
    expect(
      await query(
        database.url,
        `SELECT employee_code, name FROM broker.employee WHERE employee_code LIKE 'alt-%' ORDER BY 1`,
      ),
    ).toEqual([
      { employee_code: 'alt-1', name: 'Eva Muster' },
      { employee_code: 'alt-2', name: 'Solo' },
      { employee_code: 'alt-3', name: 'alt-3' },
    ]);
    expect(
      await query(
        database.url,
        `SELECT actor_kind, actor, target LIKE 'customers/%' AS on_customer, details FROM broker.audit_event
          WHERE action = 'mandateSigned'`,
      ),
    ).toEqual([{ actor_kind: 'customer', actor: 'kunde', on_customer: true, details: { document: 1 } }]);
    expect(
      await query(
        database.url,
        'SELECT count(*)::int AS count FROM broker.api_client WHERE key_created_at = created_at',
      ),
    ).toEqual(keys);
  });

  it('brings the work rows of an import in progress to the typed staging, and back with its down', async () => {
    const steps = await revertThrough('ImportStagingTyped1763700000019');
    await query(
      database.url,
      `WITH process AS (
         INSERT INTO "import".import_process
           (tenant_id, broker_id, requested_by, file_type, status, file_name, file_size, file_sha256, storage_key)
         SELECT tenant_id, id, 'test', 'GDV', 'customersDone', 'f.gdv', 1, repeat('0', 64), 'f'
           FROM broker.broker WHERE broker_number = 'V1000' RETURNING id),
       customer AS (
         INSERT INTO "import".staged_customer (process_id, seq, customer_key, line, data)
         SELECT id, 0, 'k1', 4, '{"key":"k1","personType":"natuerlich","salutation":"frau","title":null,
           "firstName":"Jana","lastName":"Groß","companyName":null,"birthDate":"1980-02-29",
           "address":{"street":"Weg 1","postalCode":"01067","city":"Dresden","country":"DE"},
           "contacts":[{"type":"email","value":"j@example.com","context":null}],"line":4}' FROM process),
       contract AS (
         INSERT INTO "import".staged_contract (process_id, seq, customer_key, vu_number, policy_number, line, data)
         SELECT id, 1, 'k1', '9999', 'P1', 6, '{"customerKey":"k1","vuNumber":"9999","lineOfBusiness":"040",
           "policyNumber":"P1","status":"aktiv","startDate":"2024-01-01","endDate":null,"mainDueDate":"2026-01-01",
           "paymentMode":"jaehrlich","netPremiumCents":4000,"grossPremiumCents":4760,"currency":"EUR","line":6}'
           FROM process),
       merged AS (
         -- parsed by the release before: not yet normalised
         INSERT INTO "import".merged_customer
           (process_id, customer_key, line, occurrences, person_type, first_name, last_name, postal_code, country,
            contacts, customer_id)
         SELECT id, 'k1', 4, 1, 'natuerlich', ' Jana   Maria ', 'Groß', '01 067', 'de',
                '[{"type":"email","value":" J@Example.com ","context":null},
                  {"type":"email","value":"j@example.com","context":"privat"}]',
                (SELECT min(id) FROM broker.customer)
           FROM process)
       -- extracted by the release before: not yet linked
       INSERT INTO "import".merged_contract
         (process_id, seq, line, customer_key, vu_number, policy_number, line_of_business, status, currency)
       SELECT id, 1, 6, 'k1', '9999', 'P1', '040', 'aktiv', 'EUR' FROM process`,
    );
    const staged = () =>
      query(
        database.url,
        `SELECT to_jsonb(c) - 'process_id' AS customer, to_jsonb(k) - 'process_id' AS contract
           FROM "import".staged_customer c, "import".staged_contract k`,
      );
    const asJson = await staged();
    expect((await runScript(DB_CLI, ['migrate'], env)).code).toBe(0);
    expect(await staged()).toEqual([
      {
        customer: {
          seq: 0,
          customer_key: 'k1',
          line: 4,
          person_type: 'natuerlich',
          salutation: 'frau',
          title: null,
          first_name: 'Jana',
          last_name: 'Groß',
          company_name: null,
          birth_date: '1980-02-29',
          street: 'Weg 1',
          postal_code: '01067',
          city: 'Dresden',
          country: 'DE',
          contacts: [{ type: 'email', value: 'j@example.com', context: null }],
        },
        contract: {
          seq: 1,
          customer_key: 'k1',
          vu_number: '9999',
          policy_number: 'P1',
          line: 6,
          rejected_reason: null,
          line_of_business: '040',
          status: 'aktiv',
          start_date: '2024-01-01',
          end_date: null,
          main_due_date: '2026-01-01',
          payment_mode: 'jaehrlich',
          net_premium_cents: '4000',
          gross_premium_cents: '4760',
          currency: 'EUR',
        },
      },
    ]);
    expect(
      await query(
        database.url,
        `SELECT m.first_name, m.postal_code, m.country, m.contacts,
                k.customer_id = m.customer_id AS linked_customer, co.vu_number AS linked_company
           FROM "import".merged_customer m JOIN "import".merged_contract k USING (process_id)
           JOIN broker.company co ON co.id = k.company_id`,
      ),
    ).toEqual([
      {
        first_name: 'Jana Maria',
        postal_code: '01067',
        country: 'DE',
        contacts: [{ type: 'email', value: 'j@example.com', context: 'privat' }],
        linked_customer: true,
        linked_company: '9999',
      },
    ]);
    await runScript(DB_CLI, ['revert', String(steps)], env);
    expect(await staged()).toEqual(asJson);
    expect((await runScript(DB_CLI, ['migrate'], env)).code).toBe(0);
  });

  it('refuses to seed without an encryption key, naming the variable', async () => {
    const result = await runScript(DB_CLI, ['seed'], { DATABASE_URL: database.url });
    expect(result.code).toBe(78);
    expect(result.stderr.trim()).toBe(
      'Configuration error: API_KEY_ENCRYPTION_KEY is required (32 random bytes, base64: openssl rand -base64 32)',
    );
  });
});
