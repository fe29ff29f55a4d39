import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import { startEventStream } from '@broker/platform';
import { ImportProcessRepository } from '../imports/import-process.repository.js';
import { ImportEvents } from './import-events.js';
import { ProcessEventStream, type StreamPosition } from './process-event-stream.js';

export interface EventStreamSettings {
  /** A comment line this often keeps an idle stream open through proxies. */
  heartbeatMs: number;
  /** The history is read this often besides Redis's hints (a lost hint is late by at most this). */
  pollMs: number;
  /** Streams one API process keeps open at once; beyond them 503 with Retry-After. */
  maxStreams: number;
}

export const EVENT_STREAM_SETTINGS = Symbol('EVENT_STREAM_SETTINGS');

/** The open event streams of this API process: started, timed, and ended with the client or the process. */
@Injectable()
export class ProcessEventStreams implements OnApplicationShutdown {
  private readonly open = new Set<ProcessEventStream>();

  constructor(
    private readonly processes: ImportProcessRepository,
    private readonly events: ImportEvents,
    @Inject(EVENT_STREAM_SETTINGS) private readonly settings: EventStreamSettings,
  ) {}

  /** Streams the process's events from `position` into the response until it ends or the client leaves. */
  async stream(
    processId: string,
    position: StreamPosition,
    request: Request,
    response: Response,
  ): Promise<void> {
    startEventStream(response, this.open.size, this.settings.maxStreams);
    let finish = () => undefined as void;
    const stream = new ProcessEventStream(
      processId,
      response,
      {
        statusChangesAfter: (changeId) => this.processes.statusChangesAfter(processId, changeId),
        lastRecords: () => this.events.lastRecords(processId),
      },
      position,
      () => finish(),
    );
    const stopListening = this.events.listen(processId, (message) => stream.onMessage(message));
    const timers = [
      setInterval(() => stream.heartbeat(), this.settings.heartbeatMs),
      setInterval(() => void stream.poll(), this.settings.pollMs),
    ];
    finish = () => {
      timers.forEach(clearInterval);
      stopListening();
      this.open.delete(stream);
      stream.close();
    };
    this.open.add(stream);
    response.once('close', finish);
    request.once('close', finish);
    // The client may have left while the request was authorised and checked: its 'close' came before these.
    if (request.socket.destroyed || response.destroyed) {
      finish();
      return;
    }
    try {
      await stream.open();
    } catch (error) {
      finish();
      throw error;
    }
  }

  onApplicationShutdown(): void {
    for (const stream of this.open) stream.close();
  }
}
