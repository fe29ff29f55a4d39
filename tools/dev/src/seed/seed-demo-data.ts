import { hash, verify } from '@node-rs/argon2';
import type { DataSource, EntityManager } from 'typeorm';
import type { ApiKeyCipher } from '@broker/auth';
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

/** argon2id with the library's defaults (m=19 MiB, t=2, p=1), as OWASP recommends. */
const ARGON2ID = 2;

async function one(db: EntityManager, sql: string, parameters: unknown[]): Promise<string> {
  const [row] = await db.query<{ id: string }[]>(sql, parameters);
  if (!row) throw new Error(`No id returned by: ${sql}`);
  return row.id;
}

async function upsertTenant(db: EntityManager): Promise<string> {
  return one(
    db,
    `INSERT INTO broker.tenant (code, name) VALUES ($1, $2)
     ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [DEMO_TENANT.code, DEMO_TENANT.name],
  );
}

/** Parents come before their children in DEMO_BROKERS. */
async function upsertBrokers(db: EntityManager, tenantId: string): Promise<Ids> {
  const ids: Ids = new Map();
  for (const broker of DEMO_BROKERS) {
    const parentId = broker.parent ? ids.get(broker.parent)! : null;
    const id = await one(
      db,
      `INSERT INTO broker.broker (tenant_id, broker_number, parent_id, name, city, blocked)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, broker_number) DO UPDATE
         SET parent_id = EXCLUDED.parent_id, name = EXCLUDED.name, city = EXCLUDED.city, blocked = EXCLUDED.blocked
       RETURNING id`,
      [tenantId, broker.number, parentId, broker.name, broker.city, broker.blocked ?? false],
    );
    ids.set(broker.number, id);
  }
  return ids;
}

async function upsertEmployees(db: EntityManager, tenantId: string, brokers: Ids): Promise<void> {
  for (const employee of DEMO_EMPLOYEES) {
    await db.query(
      `INSERT INTO broker.employee (tenant_id, broker_id, employee_code, first_name, last_name, email)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, broker_id, employee_code) DO UPDATE
         SET first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, email = EXCLUDED.email`,
      [
        tenantId,
        brokers.get(employee.broker),
        employee.code,
        employee.firstName,
        employee.lastName,
        employee.email,
      ],
    );
  }
}

/** The stored ciphertext is only replaced when it does not hold the demo key (e.g. after a key change). */
async function upsertApiClients(db: EntityManager, tenantId: string, brokers: Ids, cipher: ApiKeyCipher) {
  for (const client of DEMO_API_CLIENTS) {
    const [existing] = await db.query<{ api_key_ciphertext: string }[]>(
      'SELECT api_key_ciphertext FROM broker.api_client WHERE tenant_id = $1 AND api_id = $2',
      [tenantId, client.apiId],
    );
    const ciphertext =
      existing && cipher.holds(existing.api_key_ciphertext, client.apiKey)
        ? existing.api_key_ciphertext
        : cipher.encrypt(client.apiKey);
    await db.query(
      `INSERT INTO broker.api_client (tenant_id, broker_id, api_id, api_key_ciphertext)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, api_id) DO UPDATE
         SET broker_id = EXCLUDED.broker_id, api_key_ciphertext = EXCLUDED.api_key_ciphertext, blocked = false`,
      [tenantId, brokers.get(client.broker), client.apiId, ciphertext],
    );
  }
}

async function upsertCompanies(db: EntityManager, tenantId: string): Promise<Ids> {
  const ids: Ids = new Map();
  for (const company of DEMO_COMPANIES) {
    const id = await one(
      db,
      `INSERT INTO broker.company (tenant_id, vu_number, name) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, vu_number) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [tenantId, company.vuNumber, company.name],
    );
    ids.set(company.vuNumber, id);
  }
  return ids;
}

async function upsertCompanyAgreements(db: EntityManager, tenantId: string, brokers: Ids, companies: Ids) {
  for (const agreement of DEMO_COMPANY_AGREEMENTS) {
    await db.query(
      `INSERT INTO broker.company_agreement (tenant_id, broker_id, company_id, agency_number) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, broker_id, company_id) DO UPDATE SET agency_number = EXCLUDED.agency_number`,
      [tenantId, brokers.get(agreement.broker), companies.get(agreement.company), agreement.agencyNumber],
    );
  }
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

async function upsertCalcUser(db: EntityManager): Promise<void> {
  const { tenant, username, password } = DEMO_CALC_USER;
  const [existing] = await db.query<{ password_hash: string }[]>(
    'SELECT password_hash FROM calc.user_account WHERE lower(username) = $1',
    [username],
  );
  const passwordHash =
    existing && (await verify(existing.password_hash, password))
      ? existing.password_hash
      : await hash(password, { algorithm: ARGON2ID });
  await db.query(
    `INSERT INTO calc.user_account (tenant_code, username, password_hash) VALUES ($1, $2, $3)
     ON CONFLICT (lower(username)) DO UPDATE
       SET tenant_code = EXCLUDED.tenant_code, password_hash = EXCLUDED.password_hash, disabled = false`,
    [tenant, username, passwordHash],
  );
}

/** Writes the demo data in one transaction. Idempotent: a second run leaves every row as it was. */
export async function seedDemoData(dataSource: DataSource, cipher: ApiKeyCipher): Promise<void> {
  await dataSource.transaction(async (db) => {
    const tenantId = await upsertTenant(db);
    const brokers = await upsertBrokers(db, tenantId);
    await upsertEmployees(db, tenantId, brokers);
    await upsertApiClients(db, tenantId, brokers, cipher);
    const companies = await upsertCompanies(db, tenantId);
    await upsertCompanyAgreements(db, tenantId, brokers, companies);
    const definitions = await upsertDetailDefinitions(db, tenantId, brokers);
    for (const customer of DEMO_CUSTOMERS) {
      const brokerId = brokers.get(customer.broker)!;
      const customerId = await upsertCustomer(db, tenantId, brokerId, customer);
      await upsertCustomerParts(db, { tenantId, brokerId, customerId }, customer, companies, definitions);
    }
    await upsertCalcUser(db);
  });
}
