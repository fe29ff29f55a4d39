import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** The database of the development suite, before the checkout's own suffix. */
export const DATABASE_NAME = 'broker_platform';

/**
 * A name of the checkout whose state lives in `stateDir` (`<checkout>/.local`): its directory's name and a hash of
 * the state directory's absolute path. Two checkouts on one machine share its PostgreSQL and Redis, and each keeps
 * its development data under its own names, so a fresh clone never shows another checkout's imports or customers.
 */
export function checkoutName(stateDir: string): string {
  const absolute = canonicalPath(stateDir);
  const directory = path
    .basename(path.dirname(absolute))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 24);
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 8);
  return directory ? `${directory}_${hash}` : hash;
}

/** `stateDir` with its checkout's real path (symbolic links resolved), so one checkout has one name. */
function canonicalPath(stateDir: string): string {
  const absolute = path.resolve(stateDir);
  try {
    return path.join(realpathSync.native(path.dirname(absolute)), path.basename(absolute));
  } catch {
    return absolute; // a checkout that is not there (yet)
  }
}

/** The checkout's development database: a PostgreSQL identifier of at most 50 characters. */
export const checkoutDatabaseName = (stateDir: string): string =>
  `${DATABASE_NAME}_${checkoutName(stateDir)}`;

/** The checkout's Redis key prefixes, for the variables of the services that have one. */
export function checkoutRedisPrefixes(stateDir: string): {
  BROKER_REDIS_PREFIX: string;
  IMPORT_QUEUE_PREFIX: string;
} {
  const name = checkoutName(stateDir);
  return { BROKER_REDIS_PREFIX: `${name}:broker:`, IMPORT_QUEUE_PREFIX: `${name}:bull` };
}
