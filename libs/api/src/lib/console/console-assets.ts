import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface ConsoleAsset {
  body: Buffer;
  /** gzip of compressible files (null when it would not be smaller). */
  gzip: Buffer | null;
  type: string;
  etag: string;
  /** Content-hashed file names never change: cache them for a year. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

/** Where the built console is: beside the service bundle (`console/`), else the workspace build output. */
export function findConsoleDir(
  candidates = [join(__dirname, 'console'), resolve(process.cwd(), 'dist', 'apps', 'console')],
): string | undefined {
  return candidates.find((candidate) => existsSync(join(candidate, 'index.html')));
}

/**
 * Reads the whole built console into memory once (it is small): requests are answered from this
 * map, so no request path ever reaches the file system. Source maps are left out.
 */
export function loadConsoleAssets(dir: string): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (TYPES[extname(name)]) {
        const body = readFileSync(path);
        const gzip = COMPRESSIBLE.has(extname(name)) ? gzipSync(body, { level: 9 }) : null;
        const key = relative(dir, path).split(sep).join('/');
        assets.set(key, {
          body,
          gzip: gzip && gzip.length < body.length ? gzip : null,
          type: TYPES[extname(name)],
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
          immutable: key.startsWith('assets/'),
        });
      }
    }
  };
  walk(dir);
  return assets;
}
