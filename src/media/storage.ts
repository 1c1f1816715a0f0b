import { randomBytes } from 'node:crypto';
import { mkdir, open, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where uploaded media (listing photos) is kept: files by key, each written once and never changed. Callers
 * know only this interface, so another store (an S3-compatible bucket, whose url() would name the bucket)
 * can take the local disk's place without touching them.
 */
export interface MediaStorage {
  /** stores a new file under a key from newMediaKey */
  put(key: string, bytes: Buffer): Promise<void>;
  /** removes a file; a key with no file is not an error (a deletion may be retried) */
  delete(key: string): Promise<void>;
  /** the URL the file is served at */
  url(key: string): string;
}

/** The content types a key's extension may have: what the server stores and serves. */
const CONTENT_TYPES = { webp: 'image/webp' } as const;
export type MediaExtension = keyof typeof CONTENT_TYPES;

/** A key: 128 random bits (base64url) and an extension; nothing of the uploaded file's name. */
const MEDIA_KEY = new RegExp(`^[A-Za-z0-9_-]{22}\\.(${Object.keys(CONTENT_TYPES).join('|')})$`);

/** A new random key: never reused, so a URL's file never changes and may be cached for good. */
export function newMediaKey(extension: MediaExtension): string {
  return `${randomBytes(16).toString('base64url')}.${extension}`;
}

function checkedKey(key: string): string {
  if (!MEDIA_KEY.test(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
  return key;
}

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[checkedKey(key).slice(key.lastIndexOf('.') + 1) as MediaExtension];
}

/** A stored file opened for reading. */
export interface MediaFile {
  size: number;
  stream: Readable;
}

/** Files in one directory (MEDIA_DIR), named by their keys, served by media.routes.ts under URL_PREFIX. */
export class LocalDiskStorage implements MediaStorage {
  static readonly URL_PREFIX = '/media/';
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Creates the directory when missing (at start-up, so a directory that cannot be made stops it). */
  async prepare(): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    // 'wx': a key is never written twice
    await writeFile(join(this.#dir, checkedKey(key)), bytes, { flag: 'wx' });
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(join(this.#dir, checkedKey(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  url(key: string): string {
    return `${LocalDiskStorage.URL_PREFIX}${checkedKey(key)}`;
  }

  /** The file of a key, or undefined when there is none (or the name is not a key). */
  async read(key: string): Promise<MediaFile | undefined> {
    if (!MEDIA_KEY.test(key)) return undefined;
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(join(this.#dir, key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      // the stream closes the file when it ends or is destroyed
      return { size, stream: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}
