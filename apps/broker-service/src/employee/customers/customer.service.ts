import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { KontaktdatensatzInput, KundeAngelegt, KundeInput, KundeView } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import { deferSearchRefresh, refreshCustomerSearch } from '@broker/inventory';
import { CustomerMessages } from '../../notifications/customer-messages.js';
import { MessageDelivery } from '../../notifications/delivery.js';
import { checkContactValue } from '../contact-values.js';
import { ContactRepository } from '../contacts/contact.repository.js';
import type { EmployeeScope } from '../employee-scope.js';
import { visibleBrokerId } from '../../visible-broker.js';
import { customerNotFound, customerPath } from '../visible-customer.js';
import { applyKundeInput } from './customer-input.js';
import {
  type CustomerFields,
  type CustomerRecord,
  CustomerRepository,
  isUserNameTaken,
} from './customer.repository.js';
import { userNameCandidates } from './user-names.js';

const taken = (userName: string) => DomainError.validation([`Benutzername ${userName} is already taken`]);

/** addKunde, getKunde, setKunde. */
@Injectable()
export class CustomerService {
  constructor(
    private readonly db: DataSource,
    private readonly customers: CustomerRepository,
    private readonly contacts: ContactRepository,
    private readonly messages: CustomerMessages,
    private readonly delivery: MessageDelivery,
  ) {}

  async add(scope: EmployeeScope, input: KundeInput): Promise<KundeAngelegt> {
    const fields = applyKundeInput(input, undefined, scope.zone);
    const contacts = input.Kontaktdaten ?? [];
    checkStandards(contacts);
    contacts.forEach((entry, index) =>
      checkContactValue(entry.Typ, entry.Value, `Kontaktdaten.${index}.Value`),
    );
    const email = standardEmail(contacts);
    if ((fields.notifyUserName || fields.notifyPasswordLink) && !email)
      throw DomainError.validation([
        'Mitteilungen: the user name and the password link are sent by e-mail; add a Kontaktdaten entry of Typ email',
      ]);
    for (let attempt = 1; ; attempt++) {
      try {
        const created = await this.db.transaction(async (tx) => {
          await deferSearchRefresh(tx);
          const brokerId = await this.targetBroker(tx, scope, input.Vermittler);
          const userName = fields.userName ?? (await this.freeUserName(tx, scope.tenantId, fields));
          if (await this.customers.userNameExists(tx, scope.tenantId, userName)) throw taken(userName);
          const id = await this.customers.insert(tx, scope.tenantId, brokerId, { ...fields, userName });
          for (const entry of contacts) {
            await this.contacts.insert(tx, scope.tenantId, id, {
              context: entry.Kontext,
              type: entry.Typ,
              value: entry.Value.trim(),
              standard: entry.Standard ?? false,
            });
          }
          if (input.Notizen)
            await this.customers.addNote(tx, scope.tenantId, id, input.Notizen.Typ, input.Notizen.Text);
          await refreshCustomerSearch(tx, [id]);
          const messageIds = await this.messages.forNewCustomer(tx, id, email, {
            userName: fields.notifyUserName,
            passwordLink: fields.notifyPasswordLink,
            initialInformation: !fields.suppressInitialInfo,
          });
          return { id, userName, messageIds };
        });
        await this.delivery.dispatch(created.messageIds);
        return { Id: created.id, Benutzername: created.userName };
      } catch (error) {
        if (!isUserNameTaken(error)) throw error;
        // Another creation took the name between our check and our insert: a given name is taken; a
        // generated one is generated again.
        if (fields.userName || attempt === 3) throw taken(fields.userName ?? 'generated');
      }
    }
  }

  async get(scope: EmployeeScope, customerId: string): Promise<KundeView> {
    const customer = await this.customers.find(this.db.manager, scope, customerId);
    if (!customer) throw customerNotFound(customerId);
    return kundeView(scope, customer);
  }

  async set(scope: EmployeeScope, customerId: string, input: KundeInput): Promise<KundeView> {
    if (input.Kontaktdaten !== undefined)
      throw DomainError.validation([
        'Kontaktdaten cannot be changed with setKunde; use the kontaktdaten operations',
      ]);
    try {
      await this.db.transaction(async (tx) => {
        const stored = await this.customers.find(tx, scope, customerId, true);
        if (!stored) throw customerNotFound(customerId);
        const fields = applyKundeInput(input, stored, scope.zone);
        if (
          fields.userName &&
          fields.userName.toLowerCase() !== stored.userName?.toLowerCase() &&
          (await this.customers.userNameExists(tx, scope.tenantId, fields.userName))
        )
          throw taken(fields.userName);
        await this.customers.update(tx, customerId, fields);
        const note = input.Notizen;
        // A customer read and sent back carries its latest note: that is not a new one.
        if (note && (note.Typ !== stored.note?.type || note.Text !== stored.note?.text))
          await this.customers.addNote(tx, scope.tenantId, customerId, note.Typ, note.Text);
      });
    } catch (error) {
      if (isUserNameTaken(error)) throw taken(input.Benutzername ?? '');
      throw error;
    }
    return this.get(scope, customerId);
  }

  /** The employee's own broker, or the one named in Vermittler when the employee may see it. */
  private async targetBroker(tx: EntityManager, scope: EmployeeScope, brokerNumber: string | undefined) {
    if (!brokerNumber || brokerNumber === scope.brokerNumber) return scope.brokerId;
    const brokerId = await visibleBrokerId(tx, scope, brokerNumber);
    if (!brokerId)
      throw DomainError.validation([`Vermittler ${brokerNumber} is neither yours nor below yours`]);
    return brokerId;
  }

  private async freeUserName(tx: EntityManager, tenantId: string, fields: CustomerFields): Promise<string> {
    const [base] = userNameCandidates(fields);
    const used = new Set(await this.customers.userNamesStartingWith(tx, tenantId, base));
    for (const candidate of userNameCandidates(fields)) if (!used.has(candidate)) return candidate;
    throw DomainError.validation([
      'Benutzername is required: no free user name could be derived from the names',
    ]);
  }
}

/** The e-mail address messages go to: the entry marked standard, else the first one. */
function standardEmail(entries: KontaktdatensatzInput[]): string | null {
  const emails = entries.filter((entry) => entry.Typ === 'email');
  return (emails.find((entry) => entry.Standard) ?? emails[0])?.Value.trim() ?? null;
}

/** At most one standard entry per kind among the contact entries of a new customer. */
function checkStandards(entries: KontaktdatensatzInput[]): void {
  const kinds = entries.filter((entry) => entry.Standard).map((entry) => entry.Typ);
  const doubled = kinds.find((kind, index) => kinds.indexOf(kind) !== index);
  if (doubled)
    throw DomainError.validation([`Kontaktdaten: only one entry of kind ${doubled} can be Standard`]);
}

function kundeView(scope: EmployeeScope, customer: CustomerRecord): KundeView {
  const natural = customer.personType === 'natuerlich';
  return {
    Id: customer.id,
    Vermittler: customer.brokerNumber,
    Anrede: customer.salutation,
    PerDu: customer.perDu,
    Verstorben: customer.deceased,
    KundenbeziehungBeendetAm: customer.relationshipEndedOn,
    Benutzername: customer.userName,
    Person: natural
      ? {
          Typ: 'natuerlich',
          Titel: customer.title,
          Vorname: customer.firstName,
          Nachname: customer.lastName,
          Geburtsdatum: customer.birthDate,
          Beruf: customer.occupation,
          Fachrichtung: customer.specialty,
        }
      : {
          Typ: 'juristisch',
          Firma: customer.companyName,
          Ansprechpartner: customer.contactPerson,
          Gruendungsdatum: customer.foundingDate,
          Branche: customer.industry,
        },
    Kontaktdaten: customerPath(scope, customer.id, 'kontaktdaten'),
    Adressen: customerPath(scope, customer.id, 'adressen'),
    Vertraege: customerPath(scope, customer.id, 'vertraege'),
    ...(customer.mandateArchiveEntryId
      ? {
          Maklervollmacht: customerPath(
            scope,
            customer.id,
            'archiveintraege',
            customer.mandateArchiveEntryId,
          ),
        }
      : {}),
    Notizen: customer.note ? { Typ: customer.note.type, Text: customer.note.text } : null,
    Mitteilungen: {
      Benutzername: customer.notifyUserName,
      PasswortLink: customer.notifyPasswordLink,
      ErstinfoUnterbinden: customer.suppressInitialInfo,
    },
  };
}
