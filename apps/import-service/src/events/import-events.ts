import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ImportPipelineStatus } from '@broker/contracts';
import type { Redis } from 'ioredis';
import { inActiveContext, outsideAnyTrace } from '@broker/telemetry';
import type { StageRecords } from './import-progress.js';

/** A stage's records as the worker last published them. */
export interface RecordsMessage extends StageRecords {
  type: 'records';
  /** The status the stage moves on from. */
  status: ImportPipelineStatus;
  /** When the worker counted them (epoch milliseconds): orders the messages of one stage. */
  at: number;
}

/** A process's status changed: its change is in import_status_change, this only says to look. */
export interface StatusMessage {
  type: 'status';
}

export type ImportEventMessage = RecordsMessage | StatusMessage;

export interface ImportEventsSettings {
  /** Key prefix in Redis (the queue's; tests give each file its own). */
  prefix: string;
}

export const IMPORT_EVENTS_REDIS = Symbol('IMPORT_EVENTS_REDIS');
export const IMPORT_EVENTS_SETTINGS = Symbol('IMPORT_EVENTS_SETTINGS');

/** How long a process's last published records are kept (a stage of a huge file takes minutes, not hours). */
const RECORDS_TTL_SECONDS = 24 * 60 * 60;
/** A stage publishes its records at most this often. */
export const RECORDS_INTERVAL_MS = 1_000;

type Listener = (message: ImportEventMessage) => void;

/**
 * Events of import processes across processes, over Redis: the worker publishes status changes (after their
 * commit) and the records of a running stage (at most once a second, the last ones also kept under a key for the
 * report); an API instance subscribes per process it streams. Redis carries hints and progress only: the status
 * history stays in PostgreSQL, which the streams read, so a lost message costs at most a poll interval.
 * Publishing never fails an import: a Redis fault is logged and the message dropped.
 */
@Injectable()
export class ImportEvents implements OnApplicationShutdown {
  private readonly logger = new Logger(ImportEvents.name);
  private subscriber: Redis | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private lastFaultLog = 0;

  constructor(
    @Inject(IMPORT_EVENTS_REDIS) private readonly redis: Redis,
    @Inject(IMPORT_EVENTS_SETTINGS) private readonly settings: ImportEventsSettings,
  ) {}

  statusChanged(processId: string): Promise<void> {
    return this.publish(processId, { type: 'status' });
  }

  /** What a stage calls with its records as it walks them; published at most once per RECORDS_INTERVAL_MS. */
  recordsOf(processId: string, status: ImportPipelineStatus): (records: StageRecords) => void {
    let lastPublished = 0;
    return (records) => {
      const now = Date.now();
      if (now - lastPublished < RECORDS_INTERVAL_MS) return;
      lastPublished = now;
      const message: RecordsMessage = { type: 'records', status, ...records, at: now };
      void this.redis
        .set(this.recordsKey(processId), JSON.stringify(message), 'EX', RECORDS_TTL_SECONDS)
        .then(() => this.publish(processId, message))
        .catch((error: unknown) => this.logFault(error));
    };
  }

  /** The records last published for the process, when Redis has them and answers. */
  async lastRecords(processId: string): Promise<RecordsMessage | undefined> {
    try {
      const text = await this.redis.get(this.recordsKey(processId));
      return text ? (JSON.parse(text) as RecordsMessage) : undefined;
    } catch (error) {
      this.logFault(error);
      return undefined;
    }
  }

  /**
   * Calls `listener` with the process's messages until the returned function is called. Does not wait for the
   * subscription: while Redis is away a stream goes on with its history reads, and the subscription follows once
   * Redis is back.
   */
  listen(processId: string, listener: Listener): () => void {
    const channel = this.channel(processId);
    let listeners = this.listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(channel, listeners);
      void this.subscriberConnection()
        .subscribe(channel)
        .catch((error: unknown) => this.logFault(error));
    }
    // Each stream's reads in its own request's trace, whichever request opened the shared subscription.
    const inItsTrace = inActiveContext(listener);
    listeners.add(inItsTrace);
    return () => {
      listeners.delete(inItsTrace);
      if (listeners.size > 0 || this.listeners.get(channel) !== listeners) return;
      this.listeners.delete(channel);
      void this.subscriber?.unsubscribe(channel).catch((error: unknown) => this.logFault(error));
    };
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  private subscriberConnection(): Redis {
    if (!this.subscriber) {
      // Subscribing waits for the connection (the publishing one fails at once instead).
      const subscriber = outsideAnyTrace(() =>
        this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null }),
      );
      subscriber.on('message', (channel: string, text: string) => this.deliver(channel, text));
      subscriber.on('error', (error: unknown) => this.logFault(error));
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }

  private deliver(channel: string, text: string): void {
    let message: ImportEventMessage;
    try {
      message = JSON.parse(text) as ImportEventMessage;
    } catch {
      return;
    }
    for (const listener of this.listeners.get(channel) ?? []) listener(message);
  }

  private async publish(processId: string, message: ImportEventMessage): Promise<void> {
    try {
      await this.redis.publish(this.channel(processId), JSON.stringify(message));
    } catch (error) {
      this.logFault(error);
    }
  }

  private channel(processId: string): string {
    return `${this.settings.prefix}:import-events:${processId}`;
  }

  private recordsKey(processId: string): string {
    return `${this.settings.prefix}:import-records:${processId}`;
  }

  /** At most one line every 10 s: while Redis is away every publish would fail. */
  private logFault(error: unknown): void {
    if (Date.now() - this.lastFaultLog < 10_000) return;
    this.lastFaultLog = Date.now();
    this.logger.warn(
      { err: error },
      'Import events: Redis did not answer; progress and status hints are dropped',
    );
  }
}
