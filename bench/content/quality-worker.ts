import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

import { markdownToText } from '@quarry/scrape/content';

import { benchPages, type DatasetName } from './bench-datasets';
import { type ExtractorName, EXTRACTORS } from './extractors';

interface Job {
  dataset: DatasetName;
  extractors: ExtractorName[];
  shard: number;
  shards: number;
  /** Directory per baseline for cached markdown (baselines are slow and never change), if caching. */
  cacheDirs: Partial<Record<ExtractorName, string>>;
}

/** Page URL for extractors that need one, when the dataset does not know it. */
const NO_URL = 'http://localhost/';

const job = workerData as Job;
const results: Record<string, Record<string, string>> = {};
const pages = benchPages(job.dataset).filter((_, i) => i % job.shards === job.shard);
for (const name of job.extractors) {
  const extractor = EXTRACTORS[name];
  const texts: Record<string, string> = {};
  const cacheDir = job.cacheDirs[name] && join(job.cacheDirs[name] as string, job.dataset);
  const plainDir =
    job.cacheDirs['readability-jsdom'] && join(job.cacheDirs['readability-jsdom'], job.dataset);
  for (const page of pages) {
    const cached = cacheDir ? join(cacheDir, `${page.id}.md`) : undefined;
    let markdown: string | undefined;
    if (cached && existsSync(cached)) markdown = readFileSync(cached, 'utf8');
    // The fallback variant equals the plain one wherever Readability found something.
    const plain = plainDir ? join(plainDir, `${page.id}.md`) : undefined;
    if (markdown === undefined && name === 'readability-jsdom-fallback' && plain && existsSync(plain)) {
      const text = readFileSync(plain, 'utf8');
      if (text) markdown = text;
    }
    if (markdown === undefined) {
      try {
        markdown = extractor.run(page.html, page.url ?? NO_URL);
      } catch {
        markdown = '';
      }
      if (cacheDir && cached) {
        mkdirSync(cacheDir, { recursive: true });
        writeFileSync(cached, markdown);
      }
    }
    texts[page.id] = markdownToText(markdown);
  }
  results[name] = texts;
}
parentPort?.postMessage(results);
