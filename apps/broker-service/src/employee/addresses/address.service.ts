import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type AdresseInput, type AdresseView, MAIN_RESIDENCE } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import type { EmployeeScope } from '../employee-scope.js';
import { customerPath, assertVisibleCustomer } from '../visible-customer.js';
import { updatedText } from '../input-text.js';
import { type AddressRecord, AddressRepository } from './address.repository.js';

const MAIN_RESIDENCE_NO = 0;

const addressNotFound = (customerId: string, addressNo: number) =>
  DomainError.notFound(`Address ${addressNo} of customer ${customerId} does not exist`);

/**
 * Addresses of a customer. Address 0 is the main residence (Typ hauptwohnsitz) and the only one of that type:
 * it cannot be added, deleted or retyped; its Typ is ignored on update (spec).
 */
@Injectable()
export class AddressService {
  constructor(
    private readonly db: DataSource,
    private readonly addresses: AddressRepository,
  ) {}

  async list(scope: EmployeeScope, customerId: string): Promise<AdresseView[]> {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    const rows = await this.addresses.list(this.db.manager, customerId);
    return rows.map((row) => addressView(scope, customerId, row));
  }

  async get(scope: EmployeeScope, customerId: string, addressNo: number): Promise<AdresseView> {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    const address = await this.addresses.find(this.db.manager, customerId, addressNo);
    if (!address) throw addressNotFound(customerId, addressNo);
    return addressView(scope, customerId, address);
  }

  async add(scope: EmployeeScope, customerId: string, input: AdresseInput): Promise<AdresseView> {
    if (!input.Typ) throw DomainError.validation(['Typ is required']);
    if (input.Typ === MAIN_RESIDENCE)
      throw DomainError.validation(['Typ hauptwohnsitz cannot be added: the main residence is address 0']);
    return this.db.transaction(async (tx) => {
      await assertVisibleCustomer(tx, scope, customerId, true);
      const address = merged(input, await this.addresses.nextNumber(tx, customerId), input.Typ!, undefined);
      await this.addresses.save(tx, scope.tenantId, customerId, address);
      return addressView(scope, customerId, address);
    });
  }

  async set(
    scope: EmployeeScope,
    customerId: string,
    addressNo: number,
    input: AdresseInput,
  ): Promise<AdresseView> {
    if (addressNo !== MAIN_RESIDENCE_NO && input.Typ === MAIN_RESIDENCE)
      throw DomainError.validation(['Typ hauptwohnsitz is reserved for the main residence, address 0']);
    return this.db.transaction(async (tx) => {
      await assertVisibleCustomer(tx, scope, customerId, true);
      const stored = await this.addresses.find(tx, customerId, addressNo);
      // The main residence may be written before it exists; any other address must exist.
      if (!stored && addressNo !== MAIN_RESIDENCE_NO) throw addressNotFound(customerId, addressNo);
      const type = addressNo === MAIN_RESIDENCE_NO ? MAIN_RESIDENCE : (input.Typ ?? stored!.type);
      const address = merged(input, addressNo, type, stored);
      await this.addresses.save(tx, scope.tenantId, customerId, address);
      return addressView(scope, customerId, address);
    });
  }

  async delete(scope: EmployeeScope, customerId: string, addressNo: number): Promise<void> {
    if (addressNo === MAIN_RESIDENCE_NO)
      throw DomainError.validation(['Address 0, the main residence, cannot be deleted']);
    await this.db.transaction(async (tx) => {
      await assertVisibleCustomer(tx, scope, customerId, true);
      if (!(await this.addresses.delete(tx, customerId, addressNo)))
        throw addressNotFound(customerId, addressNo);
    });
  }
}

function merged(input: AdresseInput, addressNo: number, type: string, stored: AddressRecord | undefined) {
  return {
    addressNo,
    type,
    addition: updatedText(input.Zusatz, stored?.addition ?? null),
    street: updatedText(input.Strasse, stored?.street ?? null),
    postalCode: updatedText(input.Postleitzahl, stored?.postalCode ?? null),
    city: updatedText(input.Ort, stored?.city ?? null),
    country: input.Land ?? stored?.country ?? 'DE',
  };
}

function addressView(scope: EmployeeScope, customerId: string, address: AddressRecord): AdresseView {
  return {
    Uri: customerPath(scope, customerId, 'adressen', String(address.addressNo)),
    Id: String(address.addressNo),
    Typ: address.type,
    Zusatz: address.addition,
    Strasse: address.street,
    Postleitzahl: address.postalCode,
    Ort: address.city,
    Land: address.country,
  };
}
