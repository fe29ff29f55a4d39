import { createHash, randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import type { FileStorage } from './file-storage.js';

/** How many leading bytes of an upload are kept in memory for format detection. */
export const UPLOAD_HEAD_BYTES = 4096;

/** What multer hands the controller for an upload streamed to storage. */
export interface StoredUpload extends Express.Multer.File {
  storageKey: string;
  sha256: string;
  /** The first bytes, for format detection without reading the file again. */
  head: Buffer;
}

class UploadMeter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  head = Buffer.alloc(0);

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error: null, chunk: Buffer) => void,
  ): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.head.length < UPLOAD_HEAD_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, UPLOAD_HEAD_BYTES - this.head.length)]);
    }
    done(null, chunk);
  }
}

/**
 * A multer storage engine that streams each upload into file storage, hashing and measuring it on the way:
 * nothing is buffered whole. A file cut off by the size limit is removed (by multer, through _removeFile).
 */
export class StreamingUploadStorage implements StorageEngine {
  constructor(private readonly storage: FileStorage) {}

  _handleFile(
    _request: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<StoredUpload>) => void,
  ): void {
    const storageKey = `uploads/${new Date().toISOString().slice(0, 10)}/${randomUUID()}`;
    const meter = new UploadMeter();
    // On the size limit multer truncates the stream, answers 413 and removes the file through _removeFile.
    file.stream.on('error', (error: Error) => meter.destroy(error));
    // The storage's pipeline reports the error; this listener only covers the moment before it is attached.
    meter.on('error', () => undefined);
    this.storage.write(storageKey, file.stream.pipe(meter)).then(
      () =>
        callback(null, { storageKey, size: meter.size, sha256: meter.hash.digest('hex'), head: meter.head }),
      // write() has already removed its partial file; the key exists only after a complete write.
      (error: unknown) => callback(error),
    );
  }

  _removeFile(_request: Request, file: StoredUpload, callback: (error: Error | null) => void): void {
    this.storage.remove(file.storageKey).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}
