import { existsSync } from 'node:fs';
import path from 'node:path';

/** The monorepo's root: the nearest directory at or above `from` that holds pnpm-workspace.yaml. */
export function findWorkspaceRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`no pnpm-workspace.yaml in ${from} or any directory above it`);
  }
}
