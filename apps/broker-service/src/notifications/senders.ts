import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { StoredMessage } from './outbox.repository.js';

export const NOTIFICATION_SETTINGS = Symbol('NOTIFICATION_SETTINGS');

export interface NotificationSettings {
  smtpUrl: string;
  mailFrom: string;
  smsGatewayUrl: string;
  /**
   * Public base URL (scheme and host, as customers reach the gateway) of the links in messages: this service's
   * pages under /service/{tenant}/passwort-setzen and /service/{tenant}/unterschrift.
   */
  customerBaseUrl: string;
  sweepIntervalMs: number;
}

/** The server or gateway refused the message for good (unknown recipient, malformed number): no retry. */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError';
}

/** SMTP 5xx replies and HTTP 4xx answers (but timeouts and rate limits) do not get better by retrying. */
function isPermanentSmtp(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500;
}

const isPermanentHttp = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * Delivers one message over its channel, with its link filled in; throws when the server or gateway does not take
 * it (PermanentDeliveryError when retrying cannot help).
 */
@Injectable()
export class MessageSender implements OnApplicationShutdown {
  private readonly mail: Transporter;

  constructor(@Inject(NOTIFICATION_SETTINGS) private readonly settings: NotificationSettings) {
    this.mail = createTransport(settings.smtpUrl);
  }

  async send(message: StoredMessage, text: string): Promise<void> {
    if (message.channel === 'email') {
      try {
        await this.mail.sendMail({
          from: this.settings.mailFrom,
          to: message.recipient,
          subject: message.subject ?? '',
          text,
        });
      } catch (error) {
        if (isPermanentSmtp(error)) throw new PermanentDeliveryError((error as Error).message);
        throw error;
      }
      return;
    }
    const response = await fetch(this.settings.smsGatewayUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: message.recipient, text, reference: message.id }),
      signal: AbortSignal.timeout(10_000),
    });
    if (isPermanentHttp(response.status))
      throw new PermanentDeliveryError(`SMS gateway refused: ${response.status}`);
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  }

  onApplicationShutdown(): void {
    this.mail.close();
  }
}
