import JSZip from 'jszip';

/** Uncompressed size above which one entry of an office package is refused (zip bombs). */
const MAX_ENTRY_BYTES = 200 * 1024 * 1024;

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
  const size = (entry as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize;
  if (size !== undefined && size > MAX_ENTRY_BYTES)
    throw new DocumentFormatError(`${path} is larger than ${MAX_ENTRY_BYTES} bytes uncompressed`);
  return entry.async('string');
}

/** The input is not a valid document of its declared kind. */
export class DocumentFormatError extends Error {
  readonly reason = 'invalid';
  constructor(message: string) {
    super(message);
    this.name = 'DocumentFormatError';
  }
}
