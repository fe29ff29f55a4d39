import { spawnSync } from 'node:child_process';

/**
 * Makes a program from Debian's packages available to a test: true when `isInstalled` holds, else installs
 * `packageName` with apt-get (as root, non-interactive; after a failure `apt-get update` and once more) and asks
 * again. False where it cannot be had (not root, no apt-get, the install failed): the caller then skips and says so.
 */
export function ensureDebianPackage(packageName: string, isInstalled: () => boolean): boolean {
  if (isInstalled()) return true;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) return false;
  const options = {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: 'ignore' as const,
    timeout: 600_000,
  };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', packageName], options).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], options);
    install();
  }
  return isInstalled();
}
