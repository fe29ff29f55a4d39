import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { StoredMessage } from './outbox.repository.js';

export const NOTIFICATION_SETTINGS = Symbol('NOTIFICATION_SETTINGS');

export interface NotificationSettings {
  smtpUrl: string;
  mailFrom: string;
  smsGatewayUrl: string;
  /** Base URL of the customer portal the links in messages point to. */
  portalBaseUrl: string;
  sweepIntervalMs: number;
}

/** Delivers one message over its channel; throws when the server or gateway does not take it. */
@Injectable()
export class MessageSender implements OnApplicationShutdown {
  private readonly mail: Transporter;

  constructor(@Inject(NOTIFICATION_SETTINGS) private readonly settings: NotificationSettings) {
    this.mail = createTransport(settings.smtpUrl);
  }

  async send(message: StoredMessage): Promise<void> {
    if (message.channel === 'email') {
      await this.mail.sendMail({
        from: this.settings.mailFrom,
        to: message.recipient,
        subject: message.subject ?? '',
        text: message.body,
      });
      return;
    }
    const response = await fetch(this.settings.smsGatewayUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: message.recipient, text: message.body, reference: message.id }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  }

  onApplicationShutdown(): void {
    this.mail.close();
  }
}
