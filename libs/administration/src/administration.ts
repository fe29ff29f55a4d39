import type { DataSource } from 'typeorm';
import type { ApiKeyCipher } from '@broker/auth';
import { ApiClientAdministration } from './api-clients.js';
import { BrokerAdministration } from './brokers.js';
import { CalcUserAdministration } from './calc-users.js';
import { CompanyAdministration } from './companies.js';
import { EmployeeAdministration } from './employees.js';
import { MasterDataImport } from './master-data/master-data-import.js';
import { TenantAdministration } from './tenants.js';

/**
 * Every use case of the administration over one database: what the administration service, area C's sub-broker
 * creation, the demo seed and the tests' fixtures write through. There is no other way to make a tenant, a broker,
 * an employee, an API key or a calculation user.
 */
export class Administration {
  readonly tenants: TenantAdministration;
  readonly brokers: BrokerAdministration;
  readonly employees: EmployeeAdministration;
  readonly apiClients: ApiClientAdministration;
  readonly calcUsers: CalcUserAdministration;
  readonly companies: CompanyAdministration;
  readonly masterData: MasterDataImport;

  constructor(db: DataSource, cipher: ApiKeyCipher) {
    this.tenants = new TenantAdministration(db);
    this.brokers = new BrokerAdministration(db);
    this.employees = new EmployeeAdministration(db);
    this.apiClients = new ApiClientAdministration(db, cipher);
    this.calcUsers = new CalcUserAdministration(db);
    this.companies = new CompanyAdministration(db);
    this.masterData = new MasterDataImport(db);
  }
}
