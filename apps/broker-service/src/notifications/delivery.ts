import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type ConnectionOptions, Queue, UnrecoverableError, Worker } from 'bullmq';
import { ApiKeyCipher } from '@broker/auth';
import {
  NOTIFICATION_JOB_NAME,
  NOTIFICATION_JOB_OPTIONS,
  NOTIFICATION_QUEUE,
  type NotificationJob,
  notificationJobId,
} from '@broker/contracts';
import { queueTelemetry } from '@broker/telemetry';
import { DataSource } from 'typeorm';
import { LINK_PLACEHOLDER, OutboxRepository } from './outbox.repository.js';
import {
  MessageSender,
  NOTIFICATION_SETTINGS,
  type NotificationSettings,
  PermanentDeliveryError,
} from './senders.js';

export const NOTIFICATION_QUEUE_SETTINGS = Symbol('NOTIFICATION_QUEUE_SETTINGS');

export interface NotificationQueueSettings {
  connection: ConnectionOptions;
  prefix: string;
}

/**
 * Delivers outbox messages: one BullMQ job per message (keyed by its id, so it is never queued twice), retried
 * with backoff. A message whose retries are spent, or whose job was lost, stays pending in the outbox; the sweep
 * queues it again, so a message is delivered once the mail server or SMS gateway is back. A permanent refusal,
 * or MAX_ATTEMPTS attempts, end it as failed (last_error says why).
 */
@Injectable()
export class MessageDelivery implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MessageDelivery.name);
  private queue: Queue | undefined;
  private worker: Worker<{ messageId: string }> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: DataSource,
    private readonly outbox: OutboxRepository,
    private readonly sender: MessageSender,
    private readonly cipher: ApiKeyCipher,
    @Inject(NOTIFICATION_QUEUE_SETTINGS) private readonly queueSettings: NotificationQueueSettings,
    @Inject(NOTIFICATION_SETTINGS) private readonly settings: NotificationSettings,
  ) {}

  onApplicationBootstrap(): void {
    const options = {
      connection: this.queueSettings.connection,
      prefix: this.queueSettings.prefix,
      ...queueTelemetry(),
    };
    this.queue = new Queue(NOTIFICATION_QUEUE, options);
    this.worker = new Worker<{ messageId: string }>(
      NOTIFICATION_QUEUE,
      (job) => this.deliver(job.data.messageId),
      {
        ...options,
        concurrency: 4,
      },
    );
    this.worker.on('failed', (job, error) =>
      this.logger.warn(`Message ${job?.data.messageId} not delivered yet: ${error.message}`),
    );
    this.timer = setInterval(
      () => void this.sweep().catch((error: unknown) => this.report(error)),
      this.settings.sweepIntervalMs,
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.worker?.close();
    await this.queue?.close();
  }

  /** Queues messages for delivery; called after the transaction that wrote them committed. */
  async dispatch(messageIds: string[]): Promise<void> {
    try {
      for (const messageId of messageIds) {
        const job: NotificationJob = { messageId };
        await this.queue?.add(NOTIFICATION_JOB_NAME, job, {
          ...NOTIFICATION_JOB_OPTIONS,
          jobId: notificationJobId(job),
        });
      }
    } catch (error) {
      // The messages are safe in the outbox; the sweep queues them.
      this.report(error);
    }
  }

  /** Queues the pending messages whose delivery has not progressed for a sweep interval. */
  async sweep(): Promise<number> {
    const stale = await this.outbox.findStale(this.db.manager, this.settings.sweepIntervalMs);
    await this.dispatch(stale);
    return stale.length;
  }

  private async deliver(messageId: string): Promise<void> {
    const message = await this.outbox.find(this.db.manager, messageId);
    if (!message || message.status !== 'pending') return;
    const text = message.linkCiphertext
      ? message.body.replace(LINK_PLACEHOLDER, this.cipher.decrypt(message.linkCiphertext))
      : message.body;
    try {
      await this.sender.send(message, text);
    } catch (error) {
      const permanent = error instanceof PermanentDeliveryError;
      await this.outbox.recordFailure(this.db.manager, messageId, (error as Error).message, permanent);
      if (permanent) throw new UnrecoverableError((error as Error).message);
      throw error;
    }
    await this.outbox.markSent(this.db.manager, messageId);
  }

  private report(error: unknown): void {
    this.logger.error({ err: error }, 'Message delivery could not be queued');
  }
}
