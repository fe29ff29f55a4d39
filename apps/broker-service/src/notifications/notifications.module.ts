import { type DynamicModule, Module } from '@nestjs/common';
import { CustomerMessages } from './customer-messages.js';
import { MessageDelivery, NOTIFICATION_QUEUE_SETTINGS, type NotificationQueueSettings } from './delivery.js';
import { LinkTokens } from './link-tokens.js';
import { OutboxMetrics } from './outbox-metrics.js';
import { OutboxRepository } from './outbox.repository.js';
import { MessageSender, NOTIFICATION_SETTINGS, type NotificationSettings } from './senders.js';

/** Messages to customers: the outbox, their texts and tokens, and their delivery by e-mail and SMS. */
@Module({})
export class NotificationsModule {
  static forRoot(settings: NotificationSettings & { queue: NotificationQueueSettings }): DynamicModule {
    return {
      module: NotificationsModule,
      global: true,
      providers: [
        { provide: NOTIFICATION_SETTINGS, useValue: settings },
        { provide: NOTIFICATION_QUEUE_SETTINGS, useValue: settings.queue },
        OutboxRepository,
        LinkTokens,
        MessageSender,
        MessageDelivery,
        CustomerMessages,
        OutboxMetrics,
      ],
      exports: [CustomerMessages, MessageDelivery],
    };
  }
}
