import { createInflateRaw } from 'node:zlib';

import JSZip from 'jszip';

import type { DocumentLimits } from './office-output.types';

export async function openZip(data: Buffer): Promise<JSZip> {
  try {
    return await JSZip.loadAsync(data, { checkCRC32: false });
  } catch (error) {
    throw new DocumentFormatError(
      `The file is not a valid ZIP-based document: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export async function readEntry(zip: JSZip, path: string): Promise<string | undefined> {
  const entry =
    zip.file(path) ?? zip.file(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i'))[0];
  if (!entry) return undefined;
  return entry.async('string');
}

/** What JSZip keeps of a loaded entry (its internal `_data`): the compressed bytes and their method. */
interface LoadedEntry {
  compressedContent?: Uint8Array | string;
  compression?: { magic?: string };
  uncompressedSize?: number;
}

const STORED = '\x00\x00';
const DEFLATED = '\x08\x00';

/**
 * Inflates every entry of a ZIP-based document — the entries JSZip parsed from the central
 * directory, which is what mammoth, exceljs and our converters will read — counting the bytes as
 * they come out and throwing `DocumentTooLargeError` as soon as one entry passes
 * `maxEntryBytes` or all of them `maxInflatedBytes`. The sizes the archive declares are never
 * trusted (a bomb declares what it likes), and the inflated bytes are counted, not kept.
 */
export async function checkArchiveSize(zip: JSZip, limits: DocumentLimits): Promise<void> {
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const loaded = (entry as unknown as { _data?: LoadedEntry })._data;
    const content = loaded?.compressedContent;
    if (!loaded || content === undefined || typeof content === 'string')
      throw new DocumentFormatError(`${entry.name}: the archive entry could not be read`);
    const budget = Math.min(limits.maxEntryBytes, limits.maxInflatedBytes - total);
    const method = loaded.compression?.magic;
    const size =
      method === STORED
        ? content.byteLength
        : method === DEFLATED
          ? await inflatedSize(content, budget, entry.name)
          : unsupported(entry.name);
    const declared =
      loaded.uncompressedSize !== undefined ? `; it declares ${loaded.uncompressedSize >>> 0} bytes` : '';
    if (size > limits.maxEntryBytes)
      throw new DocumentTooLargeError(
        `The archive entry ${entry.name} expands beyond DOC_MAX_ENTRY_BYTES (${limits.maxEntryBytes} bytes, counted while inflating${declared})`,
      );
    total += size;
    if (total > limits.maxInflatedBytes)
      throw new DocumentTooLargeError(
        `The archive's entries expand beyond DOC_MAX_INFLATED_BYTES (${limits.maxInflatedBytes} bytes in total, counted while inflating; passed at ${entry.name})`,
      );
  }
}

/** Bytes `compressed` inflates to, stopping (and answering more than `budget`) once it passes `budget`. */
function inflatedSize(compressed: Uint8Array, budget: number, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflater = createInflateRaw();
    let size = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) {
        inflater.destroy();
        settle(() => resolve(size));
      }
    });
    inflater.on('end', () => settle(() => resolve(size)));
    inflater.on('error', (error) =>
      settle(() =>
        reject(new DocumentFormatError(`${name}: the compressed data is damaged (${error.message})`)),
      ),
    );
    inflater.end(Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength));
  });
}

function unsupported(name: string): never {
  throw new DocumentFormatError(
    `${name}: the archive entry uses a compression method other than stored or deflate`,
  );
}

/** The input is not a valid document of its declared kind. */
export class DocumentFormatError extends Error {
  readonly reason = 'invalid';
  constructor(message: string) {
    super(message);
    this.name = 'DocumentFormatError';
  }
}

/** The document expands, or converts, beyond a configured limit (DOC_MAX_*_BYTES). */
export class DocumentTooLargeError extends Error {
  readonly reason = 'too_large';
  constructor(message: string) {
    super(message);
    this.name = 'DocumentTooLargeError';
  }
}
