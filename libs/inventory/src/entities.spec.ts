import { createDataSource } from '@broker/db';
import { createTestDatabase, type TestDatabase } from '@broker/testing';
import { QueryFailedError, type DataSource } from 'typeorm';
import {
  Address,
  Broker,
  Company,
  Contact,
  Contract,
  Customer,
  CustomerDetailDefinition,
  CustomerDetailValue,
  Tenant,
  inventoryEntities,
} from './index.js';

/** The name of the constraint the database reported for the rejected statement. */
async function violatedConstraint(statement: Promise<unknown>): Promise<string | undefined> {
  const error: unknown = await statement.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(QueryFailedError);
  const driverError: Error & { constraint?: string } = (error as QueryFailedError).driverError;
  return driverError.constraint;
}

describe('inventory entities', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource({
      url: database.url,
      applicationName: 'inventory-test',
      entities: inventoryEntities,
    });
    await dataSource.initialize();
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('describe exactly the migrated schema (TypeORM would change nothing)', async () => {
    const pendingSchemaChanges = await dataSource.driver.createSchemaBuilder().log();
    expect(pendingSchemaChanges.upQueries.map((query) => query.query)).toEqual([]);
  });

  describe('round trip through the repositories', () => {
    let tenant: Tenant;
    let parentBroker: Broker;
    let broker: Broker;
    let company: Company;
    let customer: Customer;

    beforeAll(async () => {
      tenant = await dataSource.getRepository(Tenant).save({ code: 'round-trip', name: 'Round Trip GmbH' });
      const brokers = dataSource.getRepository(Broker);
      parentBroker = await brokers.save({ tenantId: tenant.id, brokerNumber: 'M-1', name: 'Zentrale' });
      broker = await brokers.save({
        tenantId: tenant.id,
        brokerNumber: 'M-2',
        parentId: parentBroker.id,
        name: 'Filiale Nord',
        city: 'Hamburg',
      });
      company = await dataSource
        .getRepository(Company)
        .save({ tenantId: tenant.id, vuNumber: '5312', name: 'Beispiel Versicherung AG' });
      customer = await dataSource.getRepository(Customer).save({
        tenantId: tenant.id,
        brokerId: broker.id,
        personType: 'natuerlich',
        salutation: 'Frau',
        firstName: 'Erika',
        lastName: 'Mustermann',
        birthDate: '1980-02-29',
        userName: 'erika',
      });
    });

    it('reads back tenant, brokers and customer', async () => {
      const storedTenant = await dataSource.getRepository(Tenant).findOneByOrFail({ id: tenant.id });
      expect(storedTenant).toMatchObject({ code: 'round-trip', name: 'Round Trip GmbH' });
      expect(typeof storedTenant.id).toBe('string');
      expect(storedTenant.createdAt).toBeInstanceOf(Date);

      const storedBroker = await dataSource
        .getRepository(Broker)
        .findOneOrFail({ where: { id: broker.id }, relations: { parent: true } });
      expect(storedBroker).toMatchObject({
        tenantId: tenant.id,
        brokerNumber: 'M-2',
        parentId: parentBroker.id,
        city: 'Hamburg',
        nameSuffix: null,
        blocked: false,
      });
      expect(storedBroker.parent).toMatchObject({ id: parentBroker.id, brokerNumber: 'M-1', parentId: null });

      const storedCustomer = await dataSource
        .getRepository(Customer)
        .findOneOrFail({ where: { id: customer.id }, relations: { broker: true } });
      expect(storedCustomer).toMatchObject({
        personType: 'natuerlich',
        firstName: 'Erika',
        lastName: 'Mustermann',
        birthDate: '1980-02-29',
        relationshipEndedOn: null,
        perDu: false,
        deceased: false,
        companyName: null,
        mandateArchiveEntryId: null,
      });
      expect(storedCustomer.broker?.brokerNumber).toBe('M-2');
    });

    it('reads back the main residence and a contact of the customer', async () => {
      await dataSource.getRepository(Address).insert({
        tenantId: tenant.id,
        customerId: customer.id,
        addressNo: 0,
        addressType: 'hauptwohnsitz',
        street: 'Heidestraße 17',
        postalCode: '51147',
        city: 'Köln',
      });
      await dataSource.getRepository(Contact).insert({
        tenantId: tenant.id,
        customerId: customer.id,
        context: 'privat',
        contactType: 'email',
        value: 'erika@example.org',
        isStandard: true,
      });

      const address = await dataSource
        .getRepository(Address)
        .findOneOrFail({ where: { customerId: customer.id, addressNo: 0 }, relations: { customer: true } });
      expect(address).toMatchObject({
        addressType: 'hauptwohnsitz',
        city: 'Köln',
        country: 'DE',
        addition: null,
      });
      expect(address.customer?.lastName).toBe('Mustermann');

      const contacts = await dataSource
        .getRepository(Contact)
        .find({ where: { customer: { id: customer.id } }, relations: { customer: true } });
      expect(contacts).toHaveLength(1);
      expect(contacts[0]).toMatchObject({
        contactType: 'email',
        value: 'erika@example.org',
        isStandard: true,
      });
      expect(contacts[0]?.customer?.id).toBe(customer.id);
    });

    it('reads back a contract with cents as numbers and dates as YYYY-MM-DD, and touches updated_at', async () => {
      const contracts = dataSource.getRepository(Contract);
      const created = await contracts.save({
        tenantId: tenant.id,
        brokerId: broker.id,
        customerId: customer.id,
        companyId: company.id,
        lineOfBusiness: 'KFZ',
        policyNumber: 'KFZ-0001',
        status: 'aktiv',
        startDate: '2024-01-01',
        mainDueDate: '2025-01-01',
        paymentMode: 'jaehrlich',
        netPremiumCents: 123_456,
        grossPremiumCents: 146_913,
      });

      const stored = await contracts.findOneOrFail({
        where: { id: created.id },
        relations: { customer: true, company: true, broker: true },
      });
      expect(stored).toMatchObject({
        policyNumber: 'KFZ-0001',
        startDate: '2024-01-01',
        endDate: null,
        mainDueDate: '2025-01-01',
        netPremiumCents: 123_456,
        grossPremiumCents: 146_913,
        currency: 'EUR',
      });
      expect(stored.customer?.id).toBe(customer.id);
      expect(stored.company?.vuNumber).toBe('5312');
      expect(stored.broker?.brokerNumber).toBe('M-2');

      await contracts.update(
        { id: created.id },
        { status: 'storniert', endDate: '2024-06-30', netPremiumCents: null },
      );
      const updated = await contracts.findOneByOrFail({ id: created.id });
      expect(updated).toMatchObject({ status: 'storniert', endDate: '2024-06-30', netPremiumCents: null });
      // Date keeps milliseconds only; the database compares the full microsecond timestamps.
      const [touched] = await dataSource.query<{ isLater: boolean }[]>(
        'SELECT updated_at > created_at AS "isLater" FROM broker.contract WHERE id = $1',
        [created.id],
      );
      expect(touched?.isLater).toBe(true);
      expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(stored.updatedAt.getTime());
    });

    it('reads back detail definitions and jsonb values', async () => {
      const definitions = dataSource.getRepository(CustomerDetailDefinition);
      const membership = await definitions.save({
        tenantId: tenant.id,
        brokerId: broker.id,
        detailKey: 'mitgliedschaft',
        name: 'Mitgliedschaft',
        valueType: 'auswahl',
        options: { gold: 'Gold', silber: 'Silber' },
      });
      const children = await definitions.save({
        tenantId: tenant.id,
        brokerId: broker.id,
        detailKey: 'kinder',
        name: 'Anzahl Kinder',
        valueType: 'zahl',
        options: null,
      });
      const values = dataSource.getRepository(CustomerDetailValue);
      await values.insert([
        { tenantId: tenant.id, customerId: customer.id, definitionId: membership.id, value: 'gold' },
        { tenantId: tenant.id, customerId: customer.id, definitionId: children.id, value: 2 },
      ]);

      const storedMembership = await definitions.findOneByOrFail({ id: membership.id });
      expect(storedMembership).toMatchObject({
        valueType: 'auswahl',
        options: { gold: 'Gold', silber: 'Silber' },
      });
      expect((await definitions.findOneByOrFail({ id: children.id })).options).toBeNull();

      const storedValues = await values.find({
        where: { customerId: customer.id },
        order: { definitionId: 'ASC' },
      });
      expect(storedValues.map((stored) => stored.value)).toEqual(['gold', 2]);
    });

    it('rejects an address 0 of another type, a main residence other than 0 and a second address 0', async () => {
      const addresses = dataSource.getRepository(Address);
      const householdMember = await dataSource.getRepository(Customer).save({
        tenantId: tenant.id,
        brokerId: broker.id,
        personType: 'natuerlich',
        lastName: 'Mustermann',
      });
      const address = { tenantId: tenant.id, customerId: householdMember.id, city: 'Bonn' };

      await expect(
        violatedConstraint(addresses.insert({ ...address, addressNo: 0, addressType: 'nebenwohnsitz' })),
      ).resolves.toBe('address_main_residence_is_zero');
      await expect(
        violatedConstraint(addresses.insert({ ...address, addressNo: 1, addressType: 'hauptwohnsitz' })),
      ).resolves.toBe('address_main_residence_is_zero');
      await addresses.insert({ ...address, addressNo: 0, addressType: 'hauptwohnsitz' });
      await expect(
        violatedConstraint(addresses.insert({ ...address, addressNo: 0, addressType: 'hauptwohnsitz' })),
      ).resolves.toBe('address_pkey');
    });

    it('rejects a second contract with the same policy number at the same company', async () => {
      const contracts = dataSource.getRepository(Contract);
      // A fresh object per insert: insert() writes the generated id back into the object it is given.
      const householdContract = (brokerId: string) => ({
        tenantId: tenant.id,
        companyId: company.id,
        customerId: customer.id,
        brokerId,
        lineOfBusiness: 'Hausrat',
        policyNumber: 'HR-7',
        status: 'aktiv',
      });
      await contracts.insert(householdContract(broker.id));

      await expect(violatedConstraint(contracts.insert(householdContract(parentBroker.id)))).resolves.toBe(
        'contract_tenant_id_company_id_policy_number_key',
      );
    });
  });
});
