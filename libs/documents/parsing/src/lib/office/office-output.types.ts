/** What the caller asked for (the content formats of the request). */
export interface OfficeConvertOptions {
  formats: ('markdown' | 'html' | 'rawHtml' | 'links' | 'images')[];
  onlyMainContent: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  removeBase64Images: boolean;
}

/** A converted non-PDF document. */
export interface OfficeOutput {
  markdown: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  metadata: Record<string, string | string[]>;
}

/**
 * How far a document may expand while it is converted (DOC_MAX_ENTRY_BYTES, DOC_MAX_INFLATED_BYTES,
 * DOC_MAX_OUTPUT_BYTES): archive entries are counted while inflating, the output once produced.
 */
export interface DocumentLimits {
  /** Uncompressed bytes of one entry of a ZIP-based document. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries of one ZIP-based document together. */
  maxInflatedBytes: number;
  /** Bytes of the produced markdown, HTML and raw HTML together. */
  maxOutputBytes: number;
}

/** The defaults of the configuration (DOC_MAX_ENTRY_BYTES 64 MiB, DOC_MAX_INFLATED_BYTES 256 MiB, DOC_MAX_OUTPUT_BYTES 32 MiB). */
export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  maxEntryBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 256 * 1024 * 1024,
  maxOutputBytes: 32 * 1024 * 1024,
};
