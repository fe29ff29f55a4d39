import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import ejs from 'ejs';
import type { NextFunction, Request, Response } from 'express';
import { escapeHtml } from '@broker/errors';

/**
 * bull-board's Express adapter with its page made fit for the console: bull-board's own template without the web
 * fonts it would fetch from a CDN and without its inline-styled loading placeholder (no inline style, nothing fetched
 * from elsewhere), in German, and with the console's script that names the board's icon buttons.
 */
class ConsoleBoardAdapter extends ExpressAdapter {
  private template = '';

  constructor(private readonly script: string | null) {
    super();
  }

  override setViewsPath(viewPath: string): ExpressAdapter {
    const script = this.script ? `<script type="module" src="${escapeHtml(this.script)}"></script>` : '';
    this.template = readFileSync(join(viewPath, 'index.ejs'), 'utf8')
      .replace('<html lang="en"', '<html lang="de"')
      .replace(/<link[^>]*fonts\.googleapis\.com[^>]*>/g, '')
      .replace(/<div id="root">[\s\S]*?<\/div>\s*<style>[\s\S]*?<\/style>\s*<\/div>/, '<div id="root"></div>')
      .replace('</body>', `${script}</body>`);
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
 * bull-board's writes the console allows (its API below the board's path): retrying, promoting and removing jobs, and
 * cleaning a queue's finished ones. Adding jobs, changing their data, emptying or obliterating queues, pausing them
 * and changing workers' limits are not an operator's console work.
 */
const ALLOWED_ACTIONS = [
  /^PUT \/api\/queues\/[^/]+\/(retry|clean)\/[a-z]+$/,
  /^PUT \/api\/queues\/[^/]+\/promote$/,
  /^PUT \/api\/queues\/[^/]+\/[^/]+\/(retry|clean|promote)$/,
];

export interface QueueBoardSettings {
  /** Where the board is mounted. */
  basePath: string;
  /** The console's script for the board's page (its path), null when the console was not built. */
  script: string | null;
}

/**
 * bull-board's colours where its own fall below WCAG AA contrast: the hint of the queue filter's shortcut, and the
 * selected queue's name in the menu.
 */
const BOARD_THEME = {
  light: { 'muted-foreground': '#4b5560', 'sidebar-state-selected-foreground': '#0a4d45' },
};

/** The console's queue board (bull-board) over the platform's queues, with job actions. */
export class QueueBoard {
  /** Answers a request below the board's path (its page, its scripts, its API). */
  readonly handle: BoardHandler;

  constructor(
    private readonly queues: Queue[],
    settings: QueueBoardSettings,
  ) {
    this.handle = this.router(settings);
  }

  /** Whether a write to the board (method, path below the board) is one the console allows. */
  static isAllowedAction(method: string, path: string): boolean {
    return ALLOWED_ACTIONS.some((action) => action.test(`${method} ${path}`));
  }

  private router({ basePath, script }: QueueBoardSettings): BoardHandler {
    const adapter = new ConsoleBoardAdapter(script);
    adapter.setBasePath(basePath);
    createBullBoard({
      queues: this.queues.map((queue) => new BullMQAdapter(queue)),
      serverAdapter: adapter,
      options: {
        uiConfig: {
          boardTitle: 'Broker-Konsole: Warteschlangen',
          locale: { lng: 'de-DE' },
          hideDocsLink: true,
          hideRedisDetails: true,
          theme: BOARD_THEME,
        },
      },
    });
    return adapter.getRouter() as BoardHandler;
  }
}
