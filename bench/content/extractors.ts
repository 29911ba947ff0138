import { transformDocument } from '@quarry/scrape/content';

import { jsdomReadability, jsdomWholeBody, linkedomReadability } from './baselines';

export type ExtractorName =
  'quarry' | 'readability-jsdom' | 'readability-jsdom-fallback' | 'readability-linkedom';

export interface Extractor {
  name: ExtractorName;
  label: string;
  /** Main-content markdown of a page. */
  run(html: string, url: string): string;
}

export const EXTRACTORS: Readonly<Record<ExtractorName, Extractor>> = {
  quarry: {
    name: 'quarry',
    label: 'Quarry (ours)',
    run: (html, url) =>
      transformDocument({ body: html, url }, ['markdown'], {
        onlyMainContent: true,
        removeBase64Images: true,
      }).markdown ?? '',
  },
  'readability-jsdom': {
    name: 'readability-jsdom',
    label: 'jsdom + Readability + turndown',
    run: (html, url) => jsdomReadability(html, url),
  },
  'readability-jsdom-fallback': {
    name: 'readability-jsdom-fallback',
    label: 'same, whole body when Readability finds nothing',
    run: (html, url) => jsdomReadability(html, url) || jsdomWholeBody(html, url),
  },
  'readability-linkedom': {
    name: 'readability-linkedom',
    label: 'linkedom + Readability + turndown',
    run: (html) => linkedomReadability(html),
  },
};
