import type { Response } from 'express';
import type { ImportPipelineStatus, ImportProcessEvent, ImportStatus } from '@broker/contracts';
import type { StatusChange } from '../imports/import-process.repository.js';
import { importProgress } from './import-progress.js';
import type { ImportEventMessage, RecordsMessage } from './import-events.js';

/** Statuses after which nothing more happens that a stream would wait for. */
const ENDED: readonly ImportStatus[] = ['processed', 'failed', 'archived'];

/** Where a reconnecting client left off: the `id` of the last event it received (Last-Event-ID). */
export interface StreamPosition {
  /** The id of the last status change sent ('0': none). */
  changeId: string;
  /** The time of the last progress event sent within that status (0: none). */
  recordsAt: number;
  /** The end event was sent: the client is done. */
  ended: boolean;
}

/** How long a client's EventSource waits before it reconnects. */
const RECONNECT_MS = 2_000;

const EVENT_ID = /^(\d{1,19})(?:\.(\d{1,15}|end))?$/;

/**
 * Reads Last-Event-ID: `<change id>` (a status event), `<change id>.<ms>` (a progress event), `<change id>.end`
 * (the end event). Anything else starts from the beginning.
 */
export function streamPosition(lastEventId: string | undefined): StreamPosition {
  const match = EVENT_ID.exec(lastEventId?.trim() ?? '');
  if (!match) return { changeId: '0', recordsAt: 0, ended: false };
  return {
    changeId: match[1],
    recordsAt: match[2] && match[2] !== 'end' ? Number(match[2]) : 0,
    ended: match[2] === 'end',
  };
}

export interface EventStreamSources {
  statusChangesAfter(changeId: string): Promise<StatusChange[]>;
  lastRecords(): Promise<RecordsMessage | undefined>;
}

/**
 * One client's stream of a process's events (Server-Sent Events): every status change from PostgreSQL after the
 * client's position, as `status` events with the change's id; progress between them as `progress` events
 * (`<change id>.<ms>`), from the worker's messages over Redis; when the process has ended, an `end` event
 * (`<change id>.end`), then the stream closes. Status changes are read again on every hint from Redis and every
 * poll, in order and one read at a time, so a lost message delays an event but never loses or repeats one.
 */
export class ProcessEventStream {
  private position: StreamPosition;
  private status: ImportStatus | undefined;
  private lastPipelineStatus: ImportPipelineStatus | undefined;
  private reading: Promise<void> = Promise.resolve();
  /** The last status change read from the history. */
  private lastRead = '0';
  private closed = false;

  constructor(
    private readonly processId: string,
    private readonly response: Response,
    private readonly sources: EventStreamSources,
    start: StreamPosition,
    /** Told once when the stream closes, by itself or by `close`. */
    private readonly onClosed: () => void = () => undefined,
  ) {
    this.position = { ...start };
  }

  /**
   * Sends what the client has not seen yet, then the current progress. A failing first read of the history
   * rejects before anything was written, so that the caller can still answer with an error.
   */
  async open(): Promise<void> {
    this.reading = this.sendStatusChanges();
    await this.reading;
    this.write(`retry: ${RECONNECT_MS}\n\n`);
    if (this.closed) return;
    const records = await this.sources.lastRecords();
    if (records) this.onMessage(records);
  }

  onMessage(message: ImportEventMessage): void {
    if (this.closed) return;
    if (message.type === 'status') {
      void this.readStatusChanges();
      return;
    }
    if (message.status !== this.status || message.at <= this.position.recordsAt) return;
    this.position.recordsAt = message.at;
    this.send('progress', `${this.position.changeId}.${message.at}`, importProgress(message.status, message));
  }

  /** Looks for status changes missed by the hints (a message Redis dropped). */
  poll(): Promise<void> {
    return this.readStatusChanges();
  }

  heartbeat(): void {
    this.write(': keep-alive\n\n');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.response.end();
    this.onClosed();
  }

  private readStatusChanges(): Promise<void> {
    this.reading = this.reading.then(() => this.sendStatusChanges()).catch(() => undefined);
    return this.reading;
  }

  /**
   * Reads the history after the last change read (the whole history the first time, sending only what lies after
   * the client's position) and sends the new changes; ends the stream once the process has ended.
   */
  private async sendStatusChanges(): Promise<void> {
    if (this.closed) return;
    const changes = await this.sources.statusChangesAfter(this.lastRead);
    // A position that is no status change of this process (another process's id) starts from the beginning.
    if (this.lastRead === '0' && !changes.some((change) => change.id === this.position.changeId))
      this.position = { changeId: '0', recordsAt: 0, ended: false };
    for (const change of changes) {
      this.lastRead = change.id;
      this.setStatus(change.status);
      if (BigInt(change.id) <= BigInt(this.position.changeId)) continue;
      this.position = { changeId: change.id, recordsAt: 0, ended: false };
      this.send('status', change.id, importProgress(change.status, undefined, this.lastPipelineStatus));
    }
    if (this.status !== undefined && ENDED.includes(this.status)) {
      const progress = importProgress(this.status, undefined, this.lastPipelineStatus);
      this.send('end', `${this.position.changeId}.end`, progress);
      this.close();
    }
  }

  private setStatus(status: ImportStatus | undefined): void {
    this.status = status;
    if (status !== undefined && status !== 'failed') this.lastPipelineStatus = status;
  }

  private send(event: string, id: string, progress: ImportProcessEvent['progress']): void {
    const data: ImportProcessEvent = { process_id: this.processId, status: this.status!, progress };
    this.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private write(text: string): void {
    if (!this.closed) this.response.write(text);
  }
}
