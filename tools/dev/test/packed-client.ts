import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer, request as forward, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from './run-cli.js';

const CLIENT_DIR = path.join(REPO_ROOT, 'libs/client');

/** pnpm as the test command runs it (npm_execpath: a program, or a script for Node), else the one on the PATH. */
function pnpm(args: string[], cwd: string): string {
  const execPath = process.env.npm_execpath;
  if (!execPath || !/pnpm/.test(path.basename(execPath)))
    return execFileSync('pnpm', args, { cwd, encoding: 'utf8' });
  return /\.[cm]?js$/.test(execPath)
    ? execFileSync(process.execPath, [execPath, ...args], { cwd, encoding: 'utf8' })
    : execFileSync(execPath, args, { cwd, encoding: 'utf8' });
}

/** `pnpm pack` of @broker/client (built) into `dir`: the tarball's path. */
export function packClient(dir: string): string {
  pnpm(['pack', '--pack-destination', dir], CLIENT_DIR);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack left no tarball in ${dir}`);
  return path.join(dir, tarball);
}

/** The files a tarball holds, as `tar` lists them (`package/...`). */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/**
 * A portal's project in `dir` (outside the workspace) with the packed client installed by npm from the tarball,
 * its dependencies from the registry, as a portal developer would install it; TypeScript's Node types beside it.
 */
export function installPackedClient(dir: string, tarball: string): void {
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'portal-example',
      private: true,
      dependencies: { '@broker/client': `file:${tarball}`, '@types/node': '24.x' },
    }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'pipe',
  });
}

export interface FaultyUpstream {
  url: string;
  /** Answers the next request to `path` with a 503. */
  refuseNextCallTo(path: string): void;
  /** The requests answered with a 503: their paths and headers. */
  refused: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/**
 * An HTTP hop in front of `target` (a service's base URL) that passes requests through, but answers the request it
 * is told to refuse with 503 and `Retry-After: 1` in the area's error shape, as an overloaded service does.
 */
export async function faultyUpstream(target: string): Promise<FaultyUpstream> {
  const upstream = new URL(target);
  const refused: FaultyUpstream['refused'] = [];
  let refusing: string | null = null;
  const server: Server = createServer((incoming, outgoing) => {
    if (incoming.url === refusing) {
      refusing = null;
      refused.push({ path: incoming.url, headers: incoming.headers });
      // Read to its end first, as a service does: an upload is refused once it has arrived.
      incoming.resume().on('end', () => {
        // Its connection is not used again: the repeat comes on a fresh one, as from a service that went away.
        outgoing.writeHead(503, {
          'Content-Type': 'application/json',
          'Retry-After': '1',
          Connection: 'close',
        });
        outgoing.end(
          JSON.stringify({
            name: 'Overloaded',
            message: 'The service is overloaded; try again in 1 s',
            code: 1500,
            status: 503,
          }),
        );
      });
      return;
    }
    const passed = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
        // A connection of its own for each request: a kept-alive one the service is closing would lose a POST.
        agent: false,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    passed.on('error', () => outgoing.destroy());
    incoming.pipe(passed);
  });
  // As the services: nginx closes its idle connections first (upstream keepalive_timeout 4 s).
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refuseNextCallTo: (path) => (refusing = path),
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
