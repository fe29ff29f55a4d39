import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ImportProcessOperations } from '@broker/administration';
import { DomainError, ErrorCode } from '@broker/errors';
import type { OperatorImportView } from '@broker/contracts';
import { startEventStream } from '@broker/platform';

export interface ImportStreamSettings {
  /** How often a stream reads the processes again. */
  pollMs: number;
  /** A comment line this often keeps an idle stream open through proxies. */
  heartbeatMs: number;
  /** Streams this process keeps open at once; beyond them 503 with Retry-After. */
  maxStreams: number;
}

export const IMPORT_STREAM_SETTINGS = Symbol('IMPORT_STREAM_SETTINGS');

/** How often an idle stream sends a comment line (its documents say so). */
export const IMPORT_STREAM_HEARTBEAT_SECONDS = 15;

/**
 * A list's stream tells of processes started this long ago at most: longer than an upload's transaction takes from
 * the process's start time to its commit, so none is missed.
 */
const RECENT_START_SECONDS = 60;

/** An event of a stream: `process` (a process's view, sent when it changed) or `started` (a new process's view). */
interface ProcessEvent {
  name: 'process' | 'started';
  view: OperatorImportView;
}

/** What a stream sends: the events of a reading of PostgreSQL, and whether it has said everything. */
interface ProcessEventSource {
  read(): Promise<ProcessEvent[]>;
  ended(): boolean;
}

/**
 * The console's live views of import processes (Server-Sent Events), read from PostgreSQL, which holds the
 * pipeline's truth, every `pollMs`: followImportProcess (one process, until it ended) and followImportProcesses (the
 * processes a list shows, and the processes started since). A process's view is sent when it changed (status,
 * progress, failure, a cancellation asked for). Streams end with the client or with this process's shutdown.
 */
@Injectable()
export class ImportProcessStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ImportProcessStreams.name);
  private readonly open = new Set<() => void>();

  constructor(
    private readonly processes: ImportProcessOperations,
    @Inject(IMPORT_STREAM_SETTINGS) private readonly settings: ImportStreamSettings,
  ) {}

  /** followImportProcess: `process` whenever the process changed, `end` once it ended; then the stream closes. */
  async follow(tenant: string, processId: string, request: Request, response: Response): Promise<void> {
    let last = await this.processes.view(tenant, processId);
    const source: ProcessEventSource = {
      read: async () => {
        last = await this.processes.view(tenant, processId);
        return [{ name: 'process', view: last }];
      },
      ended: () => last.ended_at !== null,
    };
    this.stream(request, response, source, [{ name: 'process', view: last }]);
  }

  /**
   * followImportProcesses: `process` whenever one of the processes `ids` changed (each at once first), `started`
   * for each process of the tenant started after the stream began (a list shows it once it asks again).
   */
  async followList(tenant: string, ids: string[], request: Request, response: Response): Promise<void> {
    const first = await this.processes.watch(tenant, ids, RECENT_START_SECONDS);
    let known = new Set(first.recent.map((view) => view.id));
    const source: ProcessEventSource = {
      read: async () => {
        const { watched, recent } = await this.processes.watch(tenant, ids, RECENT_START_SECONDS);
        const started = recent.filter((view) => !known.has(view.id));
        known = new Set(recent.map((view) => view.id));
        return [
          ...watched.map((view): ProcessEvent => ({ name: 'process', view })),
          ...started.map((view): ProcessEvent => ({ name: 'started', view })),
        ];
      },
      ended: () => false,
    };
    this.stream(
      request,
      response,
      source,
      first.watched.map((view) => ({ name: 'process', view })),
    );
  }

  /** Streams open now. */
  get openCount(): number {
    return this.open.size;
  }

  private stream(
    request: Request,
    response: Response,
    source: ProcessEventSource,
    first: ProcessEvent[],
  ): void {
    // The client may have left while the first reading waited for the database: its close is not heard again.
    if (request.socket.destroyed) return;
    startEventStream(response, this.open.size, this.settings.maxStreams);
    // What each followed process's last `process` event said (a source tells of a started process once).
    const sent = new Map<string, string>();
    const send = (events: ProcessEvent[]) => {
      if (!this.open.has(finish)) return;
      for (const { name, view } of events) {
        const data = JSON.stringify(view);
        if (name === 'process' && sent.get(view.id) === data) continue;
        if (name === 'process') sent.set(view.id, data);
        response.write(`event: ${name}\ndata: ${data}\n\n`);
      }
      if (source.ended()) finish(true);
    };
    let reading = false;
    const poll = setInterval(() => {
      // A reading slower than the interval is not joined by the next one.
      if (reading) return;
      reading = true;
      source
        .read()
        .then(send, (error: unknown) => {
          // The followed process is gone (its tenant was deleted): nothing more to tell.
          if (error instanceof DomainError && error.code === ErrorCode.NotFound) return finish();
          this.logger.warn({ err: error }, 'Import processes not read for a stream this time');
        })
        .finally(() => (reading = false));
    }, this.settings.pollMs);
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), this.settings.heartbeatMs);
    const finish = (ended = false) => {
      if (!this.open.delete(finish)) return;
      clearInterval(poll);
      clearInterval(heartbeat);
      if (ended) response.write('event: end\ndata: {}\n\n');
      response.end();
    };
    this.open.add(finish);
    request.on('close', () => finish());
    send(first);
  }

  /** Before the server drains: open streams would hold its close until they end by themselves. */
  beforeApplicationShutdown(): void {
    for (const finish of [...this.open]) finish();
  }
}
