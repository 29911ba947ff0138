export interface ContentOptions {
  /** Keep only the page's main content (drop navigation, headers, footers, sidebars…). Default true in the API. */
  onlyMainContent: boolean;
  /** CSS selectors: keep only clones of the matches, in a new `<div>`. */
  includeTags?: string[];
  /** CSS selectors removed; a bare `iframe` also matches `div[data-original-tag="iframe"]`. */
  excludeTags?: string[];
  /** Markdown only: `data:` images keep their alt text, the URL becomes a placeholder. */
  removeBase64Images: boolean;
}

export interface TransformInput {
  body: string;
  /** Final URL of the page (after redirects); relative URLs resolve against it. */
  url: string;
  contentType?: string;
}

export type OutputFormat = 'markdown' | 'html' | 'links' | 'images';

export interface TransformResult {
  markdown?: string;
  html?: string;
  links?: string[];
  images?: string[];
  metadata: Record<string, string | string[]>;
}
