import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

export interface StoredBlob {
  key: string;
  /** Absolute URL served by the gateway, valid until `expiresAt`. */
  url: string;
  expiresAt: Date;
}

export interface BlobContent {
  data: Buffer;
  contentType: string;
}

export interface BlobStoreOptions {
  dir: string;
  publicUrl: string;
  /** HMAC secret shared by every replica that signs or serves blob URLs. */
  signingSecret: string;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]{0,255}$/i;

/**
 * Large artefacts (screenshots, PDFs, uploads) on the local filesystem (a shared volume in a
 * cluster), handed out as signed, expiring gateway URLs: `/v2/blobs/<key>?expires=…&signature=…`.
 */
export class BlobStore {
  constructor(private readonly options: BlobStoreOptions) {}

  async put(
    prefix: string,
    data: Buffer,
    contentType: string,
    ttlMs: number,
    extension = '',
  ): Promise<StoredBlob> {
    const key = `${prefix}/${randomUUID()}${extension}`;
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const expiresAt = new Date(Date.now() + ttlMs);
    await writeFile(path, data);
    await writeFile(`${path}.meta.json`, JSON.stringify({ contentType, expiresAt: expiresAt.toISOString() }));
    return { key, url: this.signedUrl(key, expiresAt), expiresAt };
  }

  signedUrl(key: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.options.publicUrl}/v2/blobs/${key}?expires=${expires}&signature=${this.sign(key, expires)}`;
  }

  /** The blob when the signature is valid and not expired; undefined otherwise (answered 404). */
  async getSigned(
    key: string,
    expires: string | undefined,
    signature: string | undefined,
  ): Promise<BlobContent | undefined> {
    if (!KEY_PATTERN.test(key) || key.includes('..') || !expires || !signature) return undefined;
    const expiresAt = Number(expires);
    if (!Number.isInteger(expiresAt) || expiresAt * 1000 < Date.now()) return undefined;
    const expected = Buffer.from(this.sign(key, expiresAt));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    return this.get(key);
  }

  async get(key: string): Promise<BlobContent | undefined> {
    const path = this.pathOf(key);
    try {
      const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8')) as {
        contentType: string;
        expiresAt: string;
      };
      if (Date.parse(meta.expiresAt) < Date.now()) return undefined;
      return { data: await readFile(path), contentType: meta.contentType };
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    await rm(`${path}.meta.json`, { force: true });
  }

  /** Deletes expired blobs; returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name.endsWith('.meta.json')) {
          try {
            const meta = JSON.parse(await readFile(full, 'utf8')) as { expiresAt: string };
            if (Date.parse(meta.expiresAt) < now) {
              await rm(full.slice(0, -'.meta.json'.length), { force: true });
              await rm(full, { force: true });
              removed += 1;
            }
          } catch {
            if ((await stat(full).catch(() => undefined))?.isFile()) await rm(full, { force: true });
          }
        }
      }
    };
    await walk(this.options.dir);
    return removed;
  }

  private sign(key: string, expires: number): string {
    return createHmac('sha256', this.options.signingSecret).update(`${key}\n${expires}`).digest('base64url');
  }

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`invalid blob key ${key}`);
    const root = resolve(this.options.dir);
    const path = resolve(root, key);
    if (!path.startsWith(root + sep)) throw new Error(`invalid blob key ${key}`);
    return path;
  }
}
