import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where uploaded files live. A directory today; an S3-compatible store can implement the same contract. */
export interface FileStorage {
  /** Stores the whole stream under `key`; the key appears only once the content is complete. */
  write(key: string, content: Readable): Promise<void>;
  read(key: string): Readable;
  /** The stored size in bytes, or undefined when nothing is stored under the key. */
  size(key: string): Promise<number | undefined>;
  /** Removes the content; removing a missing key is not an error. */
  remove(key: string): Promise<void>;
}

export const FILE_STORAGE = Symbol('FILE_STORAGE');

const SAFE_KEY = /^[a-z0-9][a-z0-9/_-]*$/;

export class DirectoryFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  async write(key: string, content: Readable): Promise<void> {
    const target = this.pathOf(key);
    const partial = `${target}.partial`;
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await pipeline(content, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }

  async size(key: string): Promise<number | undefined> {
    const stats = await stat(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    return stats?.size;
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Not a storage key: ${key}`);
    return path.join(this.root, key);
  }
}
