import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { escapeHtml } from '@broker/errors';

/** A page of the console's own (a login that failed, a console not built): German, no script, no inline style. */
export function consolePage(title: string, message: string, link: { href: string; text: string }): string {
  return `<!DOCTYPE html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Broker-Konsole</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p></main></body></html>`;
}

/**
 * The headers of everything under /admin/console/: scripts, styles and data from the console's own origin only (no
 * inline script or style, no eval), images also as data: URLs (the QR codes), never framed, no referrer, and HSTS
 * when the console is served over https. The queue board's page (bull-board) keeps its scripts to files as well but
 * needs inline styles and its <base>.
 */
export function consoleSecurityHeaders(
  baseUrl: URL,
  page: 'console' | 'queue-board' = 'console',
): RequestHandler {
  // bull-board's page sets its <base> and styles elements inline; its scripts are files like the console's.
  const board = page === 'queue-board';
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: board ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: board ? ["'self'"] : ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: baseUrl.protocol === 'https:',
  });
}

/** The script the queue board's page loads from the console's build (vite's manifest names its file). */
const BOARD_SCRIPT_SOURCE = 'src/queue-board/board-accessibility.ts';

export interface ConsoleAssets {
  directory: string;
  /** The console's page, null when the console was not built. */
  indexHtml: string | null;
  /** The file (below `assets/`) of the queue board's script, null when the console was not built. */
  boardScript: string | null;
}

/** The built console (the package @broker/admin-console): its page and the queue board's script. */
export function consoleAssets(): ConsoleAssets {
  // eslint-disable-next-line @nx/enforce-module-boundaries -- the console's built files are served; none of its code runs here
  const directory = join(dirname(require.resolve('@broker/admin-console/package.json')), 'dist');
  const index = join(directory, 'index.html');
  const manifest = join(directory, '.vite', 'manifest.json');
  if (!existsSync(index) || !existsSync(manifest)) return { directory, indexHtml: null, boardScript: null };
  const entries = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, { file: string }>;
  const boardScript = entries[BOARD_SCRIPT_SOURCE]?.file.replace(/^assets\//, '') ?? null;
  return { directory, indexHtml: readFileSync(index, 'utf8'), boardScript };
}

/** The console's scripts and styles: file names carry their content's hash, so they are cached for good. */
export function assetFiles(directory: string): RequestHandler {
  return express.static(join(directory, 'assets'), {
    index: false,
    immutable: true,
    maxAge: '365d',
    fallthrough: false,
  });
}
