import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Meldungen, SendeUnterschrifftenlinkAuftrag } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import { CustomerMessages } from '../../notifications/customer-messages.js';
import { MessageDelivery } from '../../notifications/delivery.js';
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
      const recipient = given || (await this.standardContact(tx, customerId, channel));
      return { id: await this.messages.signatureLink(tx, customerId, channel, recipient), recipient };
    });
    await this.delivery.dispatch([sent.id]);
    const way = channel === 'email' ? 'per E-Mail' : 'per SMS';
    return {
      Meldungen: [`Der Unterschriftenlink wurde ${way} an ${masked(sent.recipient, channel)} versendet`],
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
