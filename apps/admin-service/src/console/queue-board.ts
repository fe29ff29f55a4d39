import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import ejs from 'ejs';
import type { NextFunction, Request, Response } from 'express';
import { IMPORT_PIPELINE_QUEUE, IMPORT_WEBHOOK_QUEUE, NOTIFICATION_QUEUE } from '@broker/contracts';
import { redisConnection } from '@broker/platform';

/** The platform's queues: where each service keeps them in Redis. */
export interface PlatformQueues {
  redisUrl: string;
  /** The import service's IMPORT_QUEUE_PREFIX (its pipeline and its webhook deliveries). */
  importPrefix: string;
  /** The broker service's BROKER_REDIS_PREFIX (its customer messages are queued under `{prefix}queue`). */
  brokerPrefix: string;
}

/**
 * bull-board's Express adapter with its page made fit for the console's content-security policy: the page is
 * bull-board's own template without the web fonts it would fetch from a CDN and without its inline-styled loading
 * placeholder (no inline style, nothing fetched from elsewhere).
 */
class ConsoleBoardAdapter extends ExpressAdapter {
  private template = '';

  override setViewsPath(viewPath: string): ExpressAdapter {
    this.template = readFileSync(join(viewPath, 'index.ejs'), 'utf8')
      .replace(/<link[^>]*fonts\.googleapis\.com[^>]*>/g, '')
      .replace(
        /<div id="root">[\s\S]*?<\/div>\s*<style>[\s\S]*?<\/style>\s*<\/div>/,
        '<div id="root"></div>',
      );
    return this;
  }

  override setEntryRoute(route: Parameters<ExpressAdapter['setEntryRoute']>[0]): ExpressAdapter {
    const methods: string[] = [route.method].flat();
    for (const method of methods)
      (this.app as unknown as Record<string, (path: unknown, handler: unknown) => void>)[method](
        route.route,
        (_request: Request, response: Response) => {
          const { params } = route.handler({ basePath: this.basePath, uiConfig: this.uiConfig });
          response.type('html').send(ejs.render(this.template, params));
        },
      );
    return this;
  }
}

type BoardHandler = (request: Request, response: Response, next: NextFunction) => void;

/**
 * The console's queue board (bull-board) at `basePath`: one for operators (job actions: retry, promote, remove,
 * clean) and one read-only, over the same queues.
 */
export class QueueBoards {
  private readonly queues: Queue[];
  readonly forOperators: BoardHandler;
  readonly readOnly: BoardHandler;

  constructor(platform: PlatformQueues, basePath: string) {
    const connection = redisConnection(platform.redisUrl);
    this.queues = [
      new Queue(IMPORT_PIPELINE_QUEUE, { connection, prefix: platform.importPrefix }),
      new Queue(IMPORT_WEBHOOK_QUEUE, { connection, prefix: platform.importPrefix }),
      new Queue(NOTIFICATION_QUEUE, { connection, prefix: `${platform.brokerPrefix}queue` }),
    ];
    this.forOperators = this.board(basePath, false);
    this.readOnly = this.board(basePath, true);
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }

  private board(basePath: string, readOnlyMode: boolean): BoardHandler {
    const adapter = new ConsoleBoardAdapter();
    adapter.setBasePath(basePath);
    createBullBoard({
      queues: this.queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode })),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'Broker-Konsole: Warteschlangen' } },
    });
    return adapter.getRouter() as BoardHandler;
  }
}
