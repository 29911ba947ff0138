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
