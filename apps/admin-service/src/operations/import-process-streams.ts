import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ImportProcessOperations } from '@broker/administration';
import type { OperatorImportView } from '@broker/contracts';
import { startEventStream } from '@broker/platform';

export interface ImportStreamSettings {
  /** How often a stream reads the process again. */
  pollMs: number;
  /** A comment line this often keeps an idle stream open through proxies. */
  heartbeatMs: number;
  /** Streams this process keeps open at once; beyond them 503 with Retry-After. */
  maxStreams: number;
}

export const IMPORT_STREAM_SETTINGS = Symbol('IMPORT_STREAM_SETTINGS');

/**
 * followImportProcess: an import process as it moves, for the console's live view (Server-Sent Events). Each
 * `process` event carries the OperatorImportView when it changed (status, progress, failure, a cancellation asked
 * for), read from PostgreSQL, which holds the pipeline's truth; `end` follows once the process ended, and the stream
 * closes. Streams end with the client or with this process's shutdown.
 */
@Injectable()
export class ImportProcessStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ImportProcessStreams.name);
  private readonly open = new Set<() => void>();

  constructor(
    private readonly processes: ImportProcessOperations,
    @Inject(IMPORT_STREAM_SETTINGS) private readonly settings: ImportStreamSettings,
  ) {}

  async follow(tenant: string, processId: string, request: Request, response: Response): Promise<void> {
    const first = await this.processes.view(tenant, processId);
    startEventStream(response, this.open.size, this.settings.maxStreams);
    let sent = '';
    const send = (view: OperatorImportView) => {
      if (!this.open.has(finish)) return;
      const data = JSON.stringify(view);
      if (data !== sent) response.write(`event: process\ndata: ${data}\n\n`);
      sent = data;
      if (view.ended_at !== null) finish(true);
    };
    const poll = setInterval(() => {
      this.processes.view(tenant, processId).then(send, (error: unknown) => {
        this.logger.warn({ err: error }, `Import ${processId}: not read for its stream this time`);
      });
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
