import { Address } from './entities/address.js';
import { ApiClient } from './entities/api-client.js';
import { ArchiveEntry } from './entities/archive-entry.js';
import { Broker } from './entities/broker.js';
import { Company } from './entities/company.js';
import { CompanyAgreement } from './entities/company-agreement.js';
import { Contact } from './entities/contact.js';
import { Contract } from './entities/contract.js';
import { Customer } from './entities/customer.js';
import { CustomerDetailDefinition } from './entities/customer-detail-definition.js';
import { CustomerDetailValue } from './entities/customer-detail-value.js';
import { CustomerDocument } from './entities/customer-document.js';
import { CustomerNote } from './entities/customer-note.js';
import { Employee } from './entities/employee.js';
import { Tenant } from './entities/tenant.js';

export {
  Address,
  ApiClient,
  ArchiveEntry,
  Broker,
  Company,
  CompanyAgreement,
  Contact,
  Contract,
  Customer,
  CustomerDetailDefinition,
  CustomerDetailValue,
  CustomerDocument,
  CustomerNote,
  Employee,
  Tenant,
};
export { PERSON_TYPES, type PersonType } from './entities/customer.js';
export { CUSTOMER_DETAIL_TYPES, type CustomerDetailType } from './entities/customer-detail-definition.js';

/** Every entity of the broker schema, for the DataSource's `entities`. */
export const inventoryEntities = [
  Tenant,
  Broker,
  Employee,
  ApiClient,
  Company,
  CompanyAgreement,
  Customer,
  Address,
  Contact,
  Contract,
  CustomerDocument,
  ArchiveEntry,
  CustomerNote,
  CustomerDetailDefinition,
  CustomerDetailValue,
];
export * from './broker-hierarchy.js';
export * from './customer-search.js';
