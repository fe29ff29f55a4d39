import type { DataSource, EntityManager } from 'typeorm';
import {
  Administration,
  type AuditActor,
  type MasterDataRow,
  tenantIdOf,
  type WriteContext,
} from '@broker/administration';
import { type ApiKeyCipher, passwordMatches } from '@broker/auth';
import type { MasterDataKind } from '@broker/contracts';
import { DomainError, ErrorCode } from '@broker/errors';
import {
  DEMO_API_CLIENTS,
  DEMO_BROKERS,
  DEMO_CALC_USER,
  DEMO_COMPANIES,
  DEMO_COMPANY_AGREEMENTS,
  DEMO_CUSTOMERS,
  DEMO_DETAIL_DEFINITIONS,
  DEMO_EMPLOYEES,
  DEMO_TENANT,
  type DemoCustomer,
} from './demo-data.js';

type Ids = Map<string, string>;

/** The seed writes as the platform's own tooling, audited like any other writer. */
const SEED_ACTOR: AuditActor = { kind: 'system', subject: 'db:seed', client: null };
const SEED: WriteContext = { actor: SEED_ACTOR };

async function one(db: EntityManager, sql: string, parameters: unknown[]): Promise<string> {
  const [row] = await db.query<{ id: string }[]>(sql, parameters);
  if (!row) throw new Error(`No id returned by: ${sql}`);
  return row.id;
}

const isNotFound = (error: unknown) => error instanceof DomainError && error.code === ErrorCode.NotFound;

async function ensureTenant(admin: Administration): Promise<void> {
  try {
    await admin.tenants.get(DEMO_TENANT.code);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await admin.tenants.create(SEED, { id: DEMO_TENANT.code, name: DEMO_TENANT.name });
  }
}

/** The demo's master data as the rows of a master-data file, each cell as text. */
const rows = (records: Record<string, string | boolean | undefined>[]): MasterDataRow[] =>
  records.map((record, index) => ({
    line: index + 2,
    cells: Object.fromEntries(Object.entries(record).map(([column, value]) => [column, String(value ?? '')])),
  }));

async function importMasterData(admin: Administration, kind: MasterDataKind, data: MasterDataRow[]) {
  const result = await admin.masterData.importRows(SEED, DEMO_TENANT.code, kind, data, { dryRun: false });
  if (result.errors.length > 0) throw new Error(`Demo ${kind} refused: ${JSON.stringify(result.errors)}`);
}

/** A client whose stored key is not the demo key (e.g. after a change of the encryption key) is made anew. */
async function ensureApiClients(admin: Administration): Promise<void> {
  for (const client of DEMO_API_CLIENTS) {
    if (await admin.apiClients.holdsKey(DEMO_TENANT.code, client.apiId, client.apiKey)) continue;
    await admin.apiClients.delete(SEED, DEMO_TENANT.code, client.apiId).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
    await admin.apiClients.create(
      SEED,
      DEMO_TENANT.code,
      client.broker,
      { apiId: client.apiId },
      client.apiKey,
    );
  }
}

async function ensureCalcUser(admin: Administration): Promise<void> {
  const { tenant, username, password } = DEMO_CALC_USER;
  const stored = await admin.calcUsers.passwordHashOf(tenant, username);
  if (stored === undefined) await admin.calcUsers.create(SEED, tenant, { username, password });
  else if (!(await passwordMatches(stored, password)))
    await admin.calcUsers.update(SEED, tenant, username, { password, disabled: false });
}

/** Detail definitions keyed `<broker>/<detail key>`. */
async function upsertDetailDefinitions(db: EntityManager, tenantId: string, brokers: Ids): Promise<Ids> {
  const ids: Ids = new Map();
  for (const definition of DEMO_DETAIL_DEFINITIONS) {
    const id = await one(
      db,
      `INSERT INTO broker.customer_detail_definition (tenant_id, broker_id, detail_key, name, value_type, options)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, broker_id, detail_key) DO UPDATE
         SET name = EXCLUDED.name, value_type = EXCLUDED.value_type, options = EXCLUDED.options
       RETURNING id`,
      [
        tenantId,
        brokers.get(definition.broker),
        definition.key,
        definition.name,
        definition.type,
        definition.options,
      ],
    );
    ids.set(`${definition.broker}/${definition.key}`, id);
  }
  return ids;
}

async function upsertCustomer(db: EntityManager, tenantId: string, brokerId: string, customer: DemoCustomer) {
  return one(
    db,
    `INSERT INTO broker.customer (tenant_id, broker_id, external_key, user_name, salutation, person_type,
                                  first_name, last_name, birth_date, company_name, contact_person)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (tenant_id, broker_id, external_key) WHERE external_key IS NOT NULL DO UPDATE
       SET user_name = EXCLUDED.user_name, salutation = EXCLUDED.salutation, person_type = EXCLUDED.person_type,
           first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, birth_date = EXCLUDED.birth_date,
           company_name = EXCLUDED.company_name, contact_person = EXCLUDED.contact_person
     RETURNING id`,
    [
      tenantId,
      brokerId,
      customer.key,
      customer.userName ?? null,
      customer.salutation,
      customer.personType,
      customer.firstName ?? null,
      customer.lastName ?? null,
      customer.birthDate ?? null,
      customer.companyName ?? null,
      customer.contactPerson ?? null,
    ],
  );
}

async function upsertCustomerParts(
  db: EntityManager,
  ids: { tenantId: string; brokerId: string; customerId: string },
  customer: DemoCustomer,
  companies: Ids,
  definitions: Ids,
): Promise<void> {
  const { tenantId, brokerId, customerId } = ids;
  const { street, postalCode, city } = customer.address;
  await db.query(
    `INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, street, postal_code, city)
     VALUES ($1, $2, 0, 'hauptwohnsitz', $3, $4, $5)
     ON CONFLICT (customer_id, address_no) DO UPDATE
       SET street = EXCLUDED.street, postal_code = EXCLUDED.postal_code, city = EXCLUDED.city`,
    [tenantId, customerId, street, postalCode, city],
  );
  for (const contact of customer.contacts) {
    await db.query(
      `INSERT INTO broker.contact (tenant_id, customer_id, context, contact_type, value, is_standard)
       SELECT $1, $2, $3, $4, $5, $6
       WHERE NOT EXISTS (SELECT 1 FROM broker.contact WHERE customer_id = $2 AND contact_type = $4 AND value = $5)`,
      [tenantId, customerId, contact.context, contact.type, contact.value, contact.standard],
    );
  }
  for (const contract of customer.contracts) {
    await db.query(
      `INSERT INTO broker.contract (tenant_id, broker_id, customer_id, company_id, line_of_business, policy_number,
                                    status, start_date, payment_mode, net_premium_cents, gross_premium_cents)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (tenant_id, company_id, policy_number) DO UPDATE
         SET broker_id = EXCLUDED.broker_id, customer_id = EXCLUDED.customer_id, status = EXCLUDED.status,
             start_date = EXCLUDED.start_date, payment_mode = EXCLUDED.payment_mode,
             net_premium_cents = EXCLUDED.net_premium_cents, gross_premium_cents = EXCLUDED.gross_premium_cents`,
      [
        tenantId,
        brokerId,
        customerId,
        companies.get(contract.company),
        contract.lineOfBusiness,
        contract.policyNumber,
        contract.status,
        contract.startDate,
        contract.paymentMode,
        contract.netCents,
        contract.grossCents,
      ],
    );
  }
  for (const [key, value] of Object.entries(customer.details ?? {})) {
    await db.query(
      `INSERT INTO broker.customer_detail_value (tenant_id, customer_id, definition_id, value)
       VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (customer_id, definition_id) DO UPDATE SET value = EXCLUDED.value`,
      [tenantId, customerId, definitions.get(`${customer.broker}/${key}`), JSON.stringify(value)],
    );
  }
}

/** Ids of the tenant's brokers and insurers, by number, for the customers' rows. */
async function idsOf(db: EntityManager, table: 'broker' | 'company', key: string): Promise<Ids> {
  const rows = await db.query<{ id: string; key: string }[]>(
    `SELECT x.id::text, x.${key} AS key FROM broker.${table} x JOIN broker.tenant t ON t.id = x.tenant_id
      WHERE t.code = $1`,
    [DEMO_TENANT.code],
  );
  return new Map(rows.map((row) => [row.key, row.id]));
}

/**
 * Writes the demo data. Tenant, brokers, employees, API clients, insurers, agreements and the calculation user go
 * through the administration's use cases (audited as `db:seed`), the customers in one transaction of their own.
 * Idempotent: a second run finds everything as it should be and writes nothing.
 */
export async function seedDemoData(dataSource: DataSource, cipher: ApiKeyCipher): Promise<void> {
  const admin = new Administration(dataSource, cipher);
  await ensureTenant(admin);
  await importMasterData(
    admin,
    'brokers',
    rows(
      DEMO_BROKERS.map(({ number, name, parent, blocked, city }) => ({
        number,
        name,
        parent,
        blocked,
        city,
      })),
    ),
  );
  await importMasterData(
    admin,
    'employees',
    rows(DEMO_EMPLOYEES.map(({ code, ...employee }) => ({ ...employee, number: code }))),
  );
  await importMasterData(
    admin,
    'companies',
    rows(DEMO_COMPANIES.map(({ vuNumber, name }) => ({ vu_number: vuNumber, name }))),
  );
  await importMasterData(
    admin,
    'agreements',
    rows(
      DEMO_COMPANY_AGREEMENTS.map(({ broker, company, agencyNumber }) => ({
        broker,
        vu_number: company,
        agency_number: agencyNumber,
      })),
    ),
  );
  await ensureApiClients(admin);
  await ensureCalcUser(admin);
  await dataSource.transaction(async (db) => {
    const tenantId = await tenantIdOf(db, DEMO_TENANT.code);
    const brokers = await idsOf(db, 'broker', 'broker_number');
    const companies = await idsOf(db, 'company', 'vu_number');
    const definitions = await upsertDetailDefinitions(db, tenantId, brokers);
    for (const customer of DEMO_CUSTOMERS) {
      const brokerId = brokers.get(customer.broker)!;
      const customerId = await upsertCustomer(db, tenantId, brokerId, customer);
      await upsertCustomerParts(db, { tenantId, brokerId, customerId }, customer, companies, definitions);
    }
  });
}
