import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Meldungen, SendeUnterschrifftenlinkAuftrag } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import { CustomerMessages } from '../../notifications/customer-messages.js';
import { MessageDelivery } from '../../notifications/delivery.js';
import { e164 } from '../../notifications/sms-number.js';
import type { EmployeeScope } from '../employee-scope.js';
import { checkContactValue } from '../contact-values.js';
import { assertVisibleCustomer } from '../visible-customer.js';

/** The part of a recipient shown in the answer: enough to recognise it, not enough to harvest it. */
function masked(recipient: string, channel: 'email' | 'sms'): string {
  if (channel === 'email') {
    const [local = '', domain = ''] = recipient.split('@');
    return `${local.slice(0, 1)}***@${domain}`;
  }
  return `***${recipient.replace(/\D/g, '').slice(-4)}`;
}

/**
 * The number an SMS goes to, in E.164; a number that cannot be written so is a 400 at the request, not a failed
 * delivery later. `stored`: the number is the customer's own mobile number, not the request's.
 */
function smsNumber(number: string, customerId: string, stored: boolean): string {
  const normalized = e164(number);
  if (normalized) return normalized;
  throw DomainError.validation([
    stored
      ? `The mobile number of customer ${customerId} is not a phone number an SMS can be sent to; send Kommunikationsadresse`
      : `Kommunikationsadresse "${number}" is not a phone number an SMS can be sent to`,
  ]);
}

/** sendUnterschrifftenlink: a single-use link for signing the broker mandate, by e-mail or SMS. */
@Injectable()
export class SignatureLinkService {
  constructor(
    private readonly db: DataSource,
    private readonly messages: CustomerMessages,
    private readonly delivery: MessageDelivery,
  ) {}

  async send(
    scope: EmployeeScope,
    customerId: string,
    order: SendeUnterschrifftenlinkAuftrag,
  ): Promise<Meldungen> {
    const channel = order.Kommunikationsweg;
    const sent = await this.db.transaction(async (tx) => {
      await assertVisibleCustomer(tx, scope, customerId, true);
      const given = order.Kommunikationsadresse?.trim();
      if (given) checkContactValue(channel === 'email' ? 'email' : 'mobil', given, 'Kommunikationsadresse');
      const address = given || (await this.standardContact(tx, customerId, channel));
      const recipient = channel === 'sms' ? smsNumber(address, customerId, !given) : address;
      return { id: await this.messages.signatureLink(tx, customerId, channel, recipient), recipient };
    });
    await this.delivery.dispatch([sent.id]);
    const way = channel === 'email' ? 'per E-Mail' : 'per SMS';
    // Queued in the outbox, not yet delivered: the answer does not claim more.
    return {
      Meldungen: [
        `Der Unterschriftenlink wurde zum Versand ${way} an ${masked(sent.recipient, channel)} eingereiht`,
      ],
    };
  }

  private async standardContact(tx: EntityManager, customerId: string, channel: 'email' | 'sms') {
    const kind = channel === 'email' ? 'email' : 'mobil';
    const [contact] = await tx.query<{ value: string }[]>(
      `SELECT value FROM broker.contact WHERE customer_id = $1 AND contact_type = $2
        ORDER BY is_standard DESC, id LIMIT 1`,
      [customerId, kind],
    );
    if (!contact)
      throw DomainError.validation([
        `Customer ${customerId} has no ${channel === 'email' ? 'e-mail address' : 'mobile number'}; send Kommunikationsadresse`,
      ]);
    return contact.value;
  }
}
