import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyCipher } from '@broker/auth';
import type { EntityManager } from 'typeorm';
import { customerPagePath } from '../customer-pages/page-paths.js';
import { LinkTokens } from './link-tokens.js';
import {
  type Addressee,
  type BrokerCard,
  initialInformationText,
  type MessageText,
  passwordLinkText,
  signatureLinkText,
  userNameText,
} from './message-texts.js';
import { LINK_PLACEHOLDER, OutboxRepository } from './outbox.repository.js';
import { NOTIFICATION_SETTINGS, type NotificationSettings } from './senders.js';

export interface NewCustomerMessages {
  userName: boolean;
  passwordLink: boolean;
  initialInformation: boolean;
}

interface CustomerCard extends Addressee {
  tenantId: string;
  tenantCode: string;
  customerId: string;
  userName: string | null;
  broker: BrokerCard;
}

/**
 * Composes the messages to a customer and writes them to the outbox in the caller's transaction; the caller
 * hands the returned ids to MessageDelivery.dispatch once it committed.
 */
@Injectable()
export class CustomerMessages {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly tokens: LinkTokens,
    private readonly cipher: ApiKeyCipher,
    @Inject(NOTIFICATION_SETTINGS) private readonly settings: NotificationSettings,
  ) {}

  async forNewCustomer(
    tx: EntityManager,
    customerId: string,
    email: string | null,
    wanted: NewCustomerMessages,
  ): Promise<string[]> {
    if (!email) return [];
    const card = await this.card(tx, customerId);
    const texts: [string, MessageText][] = [];
    if (wanted.userName && card.userName)
      texts.push(['benutzername', userNameText(card, card.broker, card.userName)]);
    let passwordLink: string | null = null;
    if (wanted.passwordLink) {
      passwordLink = this.link(
        customerPagePath(card.tenantCode, 'passwort-setzen'),
        await this.tokens.issue(tx, card.tenantId, customerId, 'passwort'),
      );
      texts.push(['passwortlink', passwordLinkText(card, card.broker, LINK_PLACEHOLDER)]);
    }
    if (wanted.initialInformation) texts.push(['erstinfo', initialInformationText(card, card.broker)]);
    const ids: string[] = [];
    for (const [kind, text] of texts) {
      const link = kind === 'passwortlink' ? passwordLink : null;
      ids.push(await this.write(tx, card, { kind, channel: 'email', recipient: email, text, link }));
    }
    return ids;
  }

  async signatureLink(
    tx: EntityManager,
    customerId: string,
    channel: 'email' | 'sms',
    recipient: string,
  ): Promise<string> {
    const card = await this.card(tx, customerId);
    const token = await this.tokens.issue(tx, card.tenantId, customerId, 'maklervollmacht');
    const text = signatureLinkText(card, card.broker, LINK_PLACEHOLDER, channel);
    const link = this.link(customerPagePath(card.tenantCode, 'unterschrift'), token);
    return this.write(tx, card, { kind: 'unterschriftenlink', channel, recipient, text, link });
  }

  /** `path` absolute: one of this service's customer pages. */
  private link(path: string, token: string): string {
    return `${this.settings.customerBaseUrl.replace(/\/$/, '')}${path}?token=${token}`;
  }

  /** The link (it carries a token) is stored encrypted beside the text, which holds a placeholder for it. */
  private async write(
    tx: EntityManager,
    card: CustomerCard,
    message: {
      kind: string;
      channel: 'email' | 'sms';
      recipient: string;
      text: MessageText;
      link: string | null;
    },
  ): Promise<string> {
    return this.outbox.add(tx, {
      tenantId: card.tenantId,
      customerId: card.customerId,
      kind: message.kind,
      channel: message.channel,
      recipient: message.recipient,
      subject: message.channel === 'email' ? message.text.subject : null,
      body: message.text.body,
      linkCiphertext: message.link === null ? null : this.cipher.encrypt(message.link),
    });
  }

  private async card(tx: EntityManager, customerId: string): Promise<CustomerCard> {
    const [row] = await tx.query<CustomerCard[]>(
      `SELECT c.tenant_id::text AS "tenantId", t.code AS "tenantCode", c.id::text AS "customerId",
              c.user_name AS "userName", c.salutation, c.first_name AS "firstName", c.last_name AS "lastName",
              c.company_name AS "companyName",
              json_build_object('name', b.name, 'street', b.street, 'postalCode', b.postal_code, 'city', b.city,
                                'email', b.email, 'phone', b.phone, 'imprint', b.imprint) AS broker
         FROM broker.customer c JOIN broker.broker b ON b.id = c.broker_id
         JOIN broker.tenant t ON t.id = c.tenant_id
        WHERE c.id = $1`,
      [customerId],
    );
    return row;
  }
}
