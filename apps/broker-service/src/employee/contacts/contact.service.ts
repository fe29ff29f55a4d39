import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { KontaktdatensatzInput, KontaktdatensatzUpdate, KontaktdatensatzView } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import type { EmployeeScope } from '../employee-scope.js';
import { customerPath, assertVisibleCustomer } from '../visible-customer.js';
import { checkContactValue } from '../contact-values.js';
import { type ContactRecord, ContactRepository } from './contact.repository.js';

/** Contact entries (Kontaktdatensatz) of a customer. */
@Injectable()
export class ContactService {
  constructor(
    private readonly db: DataSource,
    private readonly contacts: ContactRepository,
  ) {}

  async list(scope: EmployeeScope, customerId: string): Promise<KontaktdatensatzView[]> {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    const rows = await this.contacts.list(this.db.manager, customerId);
    return rows.map((row) => contactView(scope, customerId, row));
  }

  async get(scope: EmployeeScope, customerId: string, contactId: string): Promise<KontaktdatensatzView> {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    return contactView(scope, customerId, await this.existing(this.db.manager, customerId, contactId));
  }

  async add(
    scope: EmployeeScope,
    customerId: string,
    input: KontaktdatensatzInput,
  ): Promise<KontaktdatensatzView> {
    return this.db.transaction(async (tx) => {
      checkContactValue(input.Typ, input.Value, 'Value');
      await assertVisibleCustomer(tx, scope, customerId, true);
      const id = await this.contacts.insert(tx, scope.tenantId, customerId, {
        context: input.Kontext,
        type: input.Typ,
        value: input.Value.trim(),
        standard: input.Standard ?? false,
      });
      return contactView(scope, customerId, (await this.contacts.find(tx, customerId, id))!);
    });
  }

  /**
   * Only Value and Standard are taken into account (spec), each left as it is when absent or null; Standard: false
   * on the only entry of a kind keeps it.
   */
  async set(
    scope: EmployeeScope,
    customerId: string,
    contactId: string,
    input: KontaktdatensatzUpdate,
  ): Promise<KontaktdatensatzView> {
    return this.db.transaction(async (tx) => {
      await assertVisibleCustomer(tx, scope, customerId, true);
      const stored = await this.existing(tx, customerId, contactId);
      if (input.Value != null) checkContactValue(stored.type, input.Value, 'Value');
      await this.contacts.update(tx, customerId, {
        ...stored,
        value: input.Value?.trim() ?? stored.value,
        standard: input.Standard ?? stored.standard,
      });
      return contactView(scope, customerId, (await this.contacts.find(tx, customerId, contactId))!);
    });
  }

  async delete(scope: EmployeeScope, customerId: string, contactId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await assertVisibleCustomer(tx, scope, customerId, true);
      await this.contacts.delete(tx, customerId, await this.existing(tx, customerId, contactId));
    });
  }

  private async existing(tx: EntityManager, customerId: string, contactId: string): Promise<ContactRecord> {
    const contact = await this.contacts.find(tx, customerId, contactId);
    if (!contact)
      throw DomainError.notFound(`Contact entry ${contactId} of customer ${customerId} does not exist`);
    return contact;
  }
}

function contactView(scope: EmployeeScope, customerId: string, contact: ContactRecord): KontaktdatensatzView {
  return {
    Uri: customerPath(scope, customerId, 'kontaktdaten', contact.id),
    Id: contact.id,
    Kontext: contact.context,
    Typ: contact.type,
    Value: contact.value,
    Standard: contact.standard,
  };
}
