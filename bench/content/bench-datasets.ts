/** The two datasets of the content quality benchmark, loaded the same way by the main process and its workers. */
import { resolve } from 'node:path';

import { decodeBody } from '@quarry/scrape/content';

import {
  loadNewsPages,
  newsDatasetDir,
  type NewsPage,
} from '../../libs/scrape/content/src/quality/news-dataset.util';
import {
  loadWcxbPages,
  wcxbDatasetDir,
  type WcxbPage,
} from '../../libs/scrape/content/src/quality/wcxb-dataset.util';

export type DatasetName = 'wcxb' | 'news';

const REPO_ROOT = resolve(__dirname, '..', '..');

export function wcxbDir(): string {
  const dir = wcxbDatasetDir(REPO_ROOT, process.env['WCXB_DIR']);
  if (!dir)
    throw new Error('WCXB dataset not found (shared/data/wcxb-dev beside the repository, or WCXB_DIR)');
  return dir;
}

export function newsDir(): string {
  const dir = newsDatasetDir(REPO_ROOT, process.env['NEWS_DIR']);
  if (!dir)
    throw new Error('news-dev dataset not found (shared/data/news-dev beside the repository, or NEWS_DIR)');
  return dir;
}

export function loadWcxb(): WcxbPage[] {
  return loadWcxbPages(wcxbDir());
}

export function loadNews(): NewsPage[] {
  return loadNewsPages(newsDir());
}

/** A page as every extractor is given it: decoded once by our charset rules, with its URL. */
export interface BenchPage {
  id: string;
  url: string | undefined;
  html: string;
}

export function benchPages(dataset: DatasetName): BenchPage[] {
  const pages: Array<{ id: string; url: string | undefined; html: Uint8Array }> =
    dataset === 'wcxb' ? loadWcxb() : loadNews();
  return pages.map((p) => ({ id: p.id, url: p.url, html: decodeBody(p.html).text }));
}
